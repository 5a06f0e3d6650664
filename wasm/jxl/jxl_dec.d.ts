/** Emscripten's glue for wasm/jxl/build.sh's build: a factory that starts the module (wasm/jxl/libjxl.ts says what it exports). */
declare const startModule: (options: object) => Promise<unknown>;
export default startModule;
