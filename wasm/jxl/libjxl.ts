/**
 * This app's libjxl (wasm/jxl/build.sh: libjxl at a pinned release with this repository's APIs over it). The encoder
 * (jxl_wasm.cc): the picture is copied into the module's memory once, and libjxl reads it from there a region at a
 * time and streams the file out, so a large picture is encoded a DC group (2048 × 2048) at a time
 * (docs/decisions/memory-budget.md). The decoder (jxl_dec.cc): the file copied in, its first picture out as 8-bit RGBA
 * in sRGB, upright.
 */
import type { RawImage } from '../../core/raw-image.ts';

/** What the Emscripten module of either build exports (jxl_wasm.cc). */
export interface LibjxlModule {
  HEAPU8: Uint8Array;
  /** The threaded build's shared memory, which may grow on another thread: HEAPU8 is then this thread's old view. */
  wasmMemory?: WebAssembly.Memory;
  _jxl_buffer(size: number): number;
  _jxl_free(pointer: number): void;
  _jxl_encode(rgba: number, width: number, height: number, quality: number, effort: number, threads: number): number;
  _jxl_output(): number;
  _jxl_output_size(): number;
  _jxl_release_output(): void;
}

/** An Emscripten module of wasm/jxl/build.sh's started from its compiled `.wasm` (the glue's import and the compile side by side). */
async function startFromCompiled<M>(glue: Promise<{ default: unknown }>, compiled: Promise<WebAssembly.Module>): Promise<M> {
  const [{ default: start }, wasm] = await Promise.all([glue, compiled]);
  return (start as (options: object) => Promise<M>)({
    instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance) => void) {
      const instance = new WebAssembly.Instance(wasm, imports);
      receive(instance);
      return instance.exports;
    },
  });
}

/**
 * The encoder's single-threaded build started from its compiled `.wasm`: the page's loader compiles it from the
 * build's hashed URL, the bench's Node scripts from the file.
 */
export const startSingleThreaded = (compiled: Promise<WebAssembly.Module>): Promise<LibjxlModule> => startFromCompiled(import('./jxl_enc.js'), compiled);

/** The decoder started from its compiled `.wasm`, as the encoder's single-threaded build is. */
export const startDecoder = (compiled: Promise<WebAssembly.Module>): Promise<LibjxlDecoderModule> => startFromCompiled(import('./jxl_dec.js'), compiled);

/** The options the app hands libjxl: its quality scale (0–100, lossless at 100) and effort (1–10). */
export interface LibjxlOptions {
  quality: number;
  effort: number;
  /** Threads to encode on (the threaded build); 1 is the calling thread alone. */
  threads?: number;
}

/** libjxl's error codes (JxlEncoderError), by what they mean to this app. */
const LIBJXL_ERRORS: Record<number, string> = { [-1]: 'the encoder could not be made', 1: 'generic', 2: 'out of memory', 4: 'not supported', 128: 'API usage' };

/** A module's memory as it is now (either build's, or the decoder's). */
const heap = (module: Pick<LibjxlModule, 'HEAPU8' | 'wasmMemory'>): Uint8Array => (module.wasmMemory ? new Uint8Array(module.wasmMemory.buffer) : module.HEAPU8);

/** Encodes RGBA pixels to a bare JPEG XL codestream; throws where libjxl fails, with its error. */
export function encodeWithLibjxl(module: LibjxlModule, image: { data: Uint8ClampedArray | Uint8Array; width: number; height: number }, options: LibjxlOptions): Uint8Array {
  const pointer = module._jxl_buffer(image.data.byteLength);
  if (!pointer) throw new RangeError('JPEG XL: out of memory for the picture');
  try {
    heap(module).set(image.data, pointer);
    const status = module._jxl_encode(pointer, image.width, image.height, options.quality, options.effort, options.threads ?? 1);
    if (status !== 0) throw new Error(`JPEG XL: libjxl failed (${LIBJXL_ERRORS[status] ?? status})`);
    const output = module._jxl_output();
    // A copy out of the module's memory (shared in the threaded build), which the next encode reuses.
    return heap(module).slice(output, output + module._jxl_output_size());
  } finally {
    module._jxl_free(pointer);
    module._jxl_release_output();
  }
}

/** What the decoder's module exports (jxl_dec.cc). */
export interface LibjxlDecoderModule {
  HEAPU8: Uint8Array;
  _jxl_buffer(size: number): number;
  _jxl_free(pointer: number): void;
  _jxl_decode(data: number, size: number): number;
  _jxl_pixels(): number;
  _jxl_width(): number;
  _jxl_height(): number;
  _jxl_release_pixels(): void;
}

/** jxl_decode's error codes. */
const DECODE_ERRORS: Record<number, string> = { [-1]: 'not a JPEG XL file', [-2]: 'the file ends early', [-3]: 'libjxl could not decode it', [-4]: 'out of memory' };

/** The first picture of a JPEG XL file, as 8-bit RGBA in sRGB, upright; throws where libjxl cannot read it. */
export function decodeWithLibjxl(module: LibjxlDecoderModule, file: ArrayBuffer): RawImage {
  const pointer = module._jxl_buffer(file.byteLength);
  if (!pointer) throw new RangeError('JPEG XL: out of memory for the file');
  try {
    heap(module).set(new Uint8Array(file), pointer);
    const status = module._jxl_decode(pointer, file.byteLength);
    if (status !== 0) throw new Error(`JPEG XL: ${DECODE_ERRORS[status] ?? `libjxl failed (${status})`}`);
    const [width, height, pixels] = [module._jxl_width(), module._jxl_height(), module._jxl_pixels()];
    // A copy out of the module's memory (read afresh: decoding may have grown it), which the next decode reuses.
    return { data: new Uint8ClampedArray(heap(module).slice(pixels, pixels + width * height * 4).buffer), width, height };
  } finally {
    module._jxl_free(pointer);
    module._jxl_release_pixels();
  }
}
