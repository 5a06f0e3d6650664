import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { jpegliEncoder } from '../../wasm/jpegli/jpegli.ts';
import { decodeWithLibjxl, encodeWithLibjxl, startDecoder, startSingleThreaded, type LibjxlOptions } from '../../wasm/jxl/libjxl.ts';

/** What the bench's Node scripts (encoders.ts, encoder-heaps.ts) need to run the app's WASM encoders outside a browser. */

const require = createRequire(import.meta.url);

/** A package's .wasm, compiled, for its glue's `init(module)`. */
export const compilePackageWasm = (path: string): Promise<WebAssembly.Module> => WebAssembly.compile(readFileSync(require.resolve(path)));

/** jpegli as the app builds it (wasm/jpegli/jpegli.wasm), compiled, with a fresh instance of its own. */
export const loadJpegli = async () => jpegliEncoder(await WebAssembly.compile(readFileSync(new URL('../../wasm/jpegli/jpegli.wasm', import.meta.url))));

/**
 * libjxl as the app builds it (wasm/jxl/build.sh), its single-threaded build (what a phone, Firefox and Safari run),
 * with a fresh instance of its own (whose memory encoder-heaps.ts reads as it is made).
 */
export async function loadLibjxl(): Promise<(image: Rgba, options: LibjxlOptions) => Uint8Array> {
  const module = await startSingleThreaded(WebAssembly.compile(readFileSync(new URL('../../wasm/jxl/jxl_enc.wasm', import.meta.url))));
  return (image, options) => encodeWithLibjxl(module, image, options);
}

/** libjxl's decoder as the app builds it (wasm/jxl/build.sh), with a fresh instance of its own. */
export async function loadLibjxlDecoder(): Promise<(file: Uint8Array) => Rgba> {
  const module = await startDecoder(WebAssembly.compile(readFileSync(new URL('../../wasm/jxl/jxl_dec.wasm', import.meta.url))));
  return (file) => decodeWithLibjxl(module, file.slice().buffer);
}

/** ImageData's shape, which jSquash's encoders take. */
export interface Rgba {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/** An encoded image's RGBA pixels, decoded by sharp. */
export async function decodeRgba(bytes: Uint8Array): Promise<Rgba> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}
