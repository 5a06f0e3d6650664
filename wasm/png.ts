import type { OptimiseOptions } from '@jsquash/oxipng/meta';
import pngUrl from '@jsquash/png/codec/pkg/squoosh_png_bg.wasm?url';
import oxipngUrl from '@jsquash/oxipng/codec/pkg/squoosh_oxipng_bg.wasm?url';
import { once } from './once';

// The PNG encoder and decoder share one .wasm; the second init finds it already instantiated.
const encoder = once(async () => {
  const codec = await import('@jsquash/png/encode');
  await codec.init(pngUrl);
  return codec.default;
});

const decoder = once(async () => {
  const codec = await import('@jsquash/png/decode');
  await codec.init(pngUrl);
  return codec.default;
});

/**
 * oxipng's single-threaded build: the package takes its threaded one only in a cross-origin isolated worker, where
 * this build's .wasm would not fit that glue; there the package is left to find its own.
 */
const oxipng = once(async () => {
  const codec = await import('@jsquash/oxipng/optimise');
  await codec.init(globalThis.crossOriginIsolated ? undefined : oxipngUrl);
  return codec.default;
});


export async function encodePng(image: ImageData): Promise<ArrayBuffer> {
  return (await encoder())(image);
}

export async function optimisePng(image: ImageData, options: Partial<OptimiseOptions>): Promise<ArrayBuffer> {
  return (await oxipng())(image, options);
}

export async function decodePng(buffer: ArrayBuffer): Promise<ImageData> {
  return (await decoder())(buffer);
}
