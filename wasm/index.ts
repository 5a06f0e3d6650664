import { FORMATS, IMAGE_FORMATS, SOURCE_FORMAT_IDS, SOURCE_FORMATS, type ImageFormat, type SourceFormat } from '../core/formats.ts';
import type { WarmUpPlan } from '../core/contract.ts';
import type { Codec, SourceCodec } from './codec.ts';
import { resizeLanczos3 } from './resize/loader.ts';

/**
 * The workers' codecs, one per format folder (wasm/<codec>/index.ts, found by the build): adding a format needs no
 * line here. Each must belong to a registry entry (core/formats.ts), and every entry must have one.
 */
const found = Object.values(import.meta.glob<{ codec: SourceCodec }>('./*/index.ts', { eager: true })).map((module) => module.codec);

/** The codec of every format a file may come in (what reads it: its decoder, its metadata). */
export const SOURCE_CODECS = Object.fromEntries(
  SOURCE_FORMAT_IDS.map((format) => {
    const codec = found.find((candidate) => candidate.format === SOURCE_FORMATS[format]);
    if (!codec) throw new Error(`No codec folder for the format "${format}" (wasm/${format}/index.ts)`);
    return [format, codec];
  }),
) as Record<SourceFormat, SourceCodec>;

/** The codec of every output format: its source codec, with an encoder. */
export const CODECS = Object.fromEntries(
  IMAGE_FORMATS.map((format) => {
    const codec = SOURCE_CODECS[format];
    if (codec.format !== FORMATS[format] || !('encode' in codec)) throw new Error(`The codec folder of the output format "${format}" has no encoder (wasm/${format}/index.ts)`);
    return [format, codec as Codec];
  }),
) as Record<ImageFormat, Codec>;

export { resizeLanczos3 };
export type { Codec, ContainerMetadata, EncodeOptions, SourceCodec } from './codec.ts';

/**
 * Fetches, compiles and instantiates what the plan names by running each once on a 4 × 4 image: a codec's
 * start-up finishes only with its first call.
 */
export async function warmCodecs({ format, encoder, resizer }: WarmUpPlan): Promise<void> {
  const tiny = new ImageData(new Uint8ClampedArray(4 * 4 * 4).fill(255), 4, 4);
  await Promise.all([resizer ? resizeLanczos3(tiny, 2, 2) : null, encoder ? CODECS[format].warm(tiny) : null]);
}
