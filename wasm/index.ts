import { FORMATS, IMAGE_FORMATS, type ImageFormat } from '../core/formats';
import type { WarmUpPlan } from '../core/contract';
import type { Codec } from './codec';
import { resizeLanczos3 } from './resize/loader';

/**
 * The workers' codecs, one per format folder (wasm/<codec>/index.ts, found by the build): adding a format needs no
 * line here. Each must belong to a registry entry (core/formats.ts), and every entry must have one.
 */
const found = Object.values(import.meta.glob<{ codec: Codec }>('./*/index.ts', { eager: true })).map((module) => module.codec);

export const CODECS = Object.fromEntries(
  IMAGE_FORMATS.map((format) => {
    const codec = found.find((candidate) => candidate.format === FORMATS[format]);
    if (!codec) throw new Error(`No codec folder for the format "${format}" (wasm/${format}/index.ts)`);
    return [format, codec];
  }),
) as Record<ImageFormat, Codec>;

export { resizeLanczos3 };
export type { Codec, ContainerMetadata, EncodeOptions } from './codec';

/**
 * Fetches, compiles and instantiates what the plan names by running each once on a 4 × 4 image: a codec's
 * start-up finishes only with its first call.
 */
export async function warmCodecs({ format, encoder, resizer }: WarmUpPlan): Promise<void> {
  const tiny = new ImageData(new Uint8ClampedArray(4 * 4 * 4).fill(255), 4, 4);
  await Promise.all([resizer ? resizeLanczos3(tiny, 2, 2) : null, encoder ? CODECS[format].warm(tiny) : null]);
}
