/**
 * A codec's start-up (its glue module imported, its .wasm fetched and compiled), run once per worker and shared by
 * every caller; a failed start may be tried again.
 */
export function once<T>(start: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | null = null;
  return () => {
    started ??= start().catch((error: unknown) => {
      started = null;
      throw error;
    });
    return started;
  };
}

/**
 * A codec's .wasm compiled from the hashed URL this app's build gave it (and the service worker precached), handed
 * to the package's `init(module)`, jSquash's way for a host that decides when and from where: compiled while it
 * downloads where the host serves `application/wasm`, from its bytes where it does not.
 */
export async function compileWasm(url: string): Promise<WebAssembly.Module> {
  try {
    return await WebAssembly.compileStreaming(fetch(url));
  } catch {
    return WebAssembly.compile(await (await fetch(url)).arrayBuffer());
  }
}

/** What an Emscripten encoder module of jSquash's (libavif, libjxl) exposes: `encode`, null when it failed. */
interface EmscriptenEncoder<Options> {
  encode(data: BufferSource, width: number, height: number, options: Options): Uint8Array | null;
}

/**
 * An Emscripten encoder module's `encode` called as the package's own encode.js calls it (the codec's defaults under
 * the options given, a failure thrown): for a module this app started itself, from the build it chose.
 */
export function emscriptenEncode<Options extends object>(module: EmscriptenEncoder<Options>, defaults: Options, label: string) {
  return async (image: ImageData, options: Partial<Options>): Promise<ArrayBuffer> => {
    const output = module.encode(new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength), image.width, image.height, { ...defaults, ...options });
    if (!output) throw new Error(`${label} encoding failed`);
    return output.buffer as ArrayBuffer;
  };
}

/** What a jSquash module gives: `init(module)` to start it from a compiled .wasm, and its function as the default export. */
interface JsquashModule<F> {
  init(module: WebAssembly.Module): Promise<unknown>;
  default: F;
}

/**
 * A jSquash module's function, started once per worker from the .wasm `wasm` compiles (this app's hashed, precached
 * URL): the glue's import and the compile run side by side.
 */
export function jsquashStarted<F>(load: () => Promise<JsquashModule<F>>, wasm: () => Promise<WebAssembly.Module>): () => Promise<F> {
  return once(async () => {
    const [codec, module] = await Promise.all([load(), wasm()]);
    await codec.init(module);
    return codec.default;
  });
}
