/**
 * This app's libjxl encoder (wasm/jxl/build.sh: libjxl at a pinned release with jxl_wasm.cc, this repository's encode
 * API): the picture is copied into the module's memory once, and libjxl reads it from there a region at a time and
 * streams the file out, so a large picture is encoded a DC group (2048 × 2048) at a time (docs/decisions/memory-budget.md).
 */

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

/**
 * The single-threaded build started from its compiled `.wasm` (the glue's import and the compile side by side): the
 * page's loader compiles it from the build's hashed URL, the bench's Node scripts from the file.
 */
export async function startSingleThreaded(compiled: Promise<WebAssembly.Module>): Promise<LibjxlModule> {
  const [glue, wasm] = await Promise.all([import('./jxl_enc.js'), compiled]);
  return (glue.default as (options: object) => Promise<LibjxlModule>)({
    instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance) => void) {
      const instance = new WebAssembly.Instance(wasm, imports);
      receive(instance);
      return instance.exports;
    },
  });
}

/** The options the app hands libjxl: its quality scale (0–100, lossless at 100) and effort (1–10). */
export interface LibjxlOptions {
  quality: number;
  effort: number;
  /** Threads to encode on (the threaded build); 1 is the calling thread alone. */
  threads?: number;
}

/** libjxl's error codes (JxlEncoderError), by what they mean to this app. */
const LIBJXL_ERRORS: Record<number, string> = { [-1]: 'the encoder could not be made', 1: 'generic', 2: 'out of memory', 4: 'not supported', 128: 'API usage' };

/** The module's memory as it is now. */
const heap = (module: LibjxlModule): Uint8Array => (module.wasmMemory ? new Uint8Array(module.wasmMemory.buffer) : module.HEAPU8);

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
