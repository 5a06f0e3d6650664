import { defaultOptions as oxipngDefaults, type OptimiseOptions } from '@jsquash/oxipng/meta';
import pngUrl from '@jsquash/png/codec/pkg/squoosh_png_bg.wasm?url';
import oxipngUrl from '@jsquash/oxipng/codec/pkg/squoosh_oxipng_bg.wasm?url';
import { compileWasm, jsquashStarted, once } from '../once.ts';

// The PNG encoder and decoder share one .wasm, compiled once; the second init finds it already instantiated.
const pngModule = once(() => compileWasm(pngUrl));

const encoder = jsquashStarted(() => import('@jsquash/png/encode'), pngModule);

const decoder = jsquashStarted(() => import('@jsquash/png/decode'), pngModule);

/**
 * oxipng's single-threaded build, started straight from its wasm-bindgen module. The package's own entry point
 * imports its threaded build as well (used only in a cross-origin isolated worker, which this app never is), and
 * importing that entry made the build emit the threaded build into the offline precache under the same file name.
 */
const oxipng = once(async () => {
  const codec = await import('@jsquash/oxipng/codec/pkg/squoosh_oxipng.js');
  await codec.default(await compileWasm(oxipngUrl));
  return codec.optimise_raw;
});

export async function encodePng(image: ImageData): Promise<ArrayBuffer> {
  return (await encoder())(image);
}

export async function optimisePng(image: ImageData, options: Partial<OptimiseOptions>): Promise<ArrayBuffer> {
  const { level, interlace, optimiseAlpha } = { ...oxipngDefaults, ...options };
  const optimised = (await oxipng())(image.data, image.width, image.height, level, interlace, optimiseAlpha);
  // The glue hands back its own copy out of the WASM heap, and this single-threaded build never shares memory.
  return optimised.buffer as ArrayBuffer;
}

export async function decodePng(buffer: ArrayBuffer): Promise<ImageData> {
  return (await decoder())(buffer);
}
