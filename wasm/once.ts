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
 * Emscripten's option that tells a codec where its .wasm is: the hashed URL this app's build gave it (and the
 * service worker precached), rather than one the glue works out for itself.
 */
export function wasmAt(url: string) {
  return { locateFile: () => url };
}
