import manifest from '../package.json' with { type: 'json' };

/**
 * The codec packages, as plain data for the build (vite.config.ts): the runtime loaders are the codec folders, and
 * only wasm/ imports @jsquash.
 */

/** Every @jsquash package the app depends on: their modules find their .wasm relative to themselves, so Vite must not pre-bundle them. */
export const CODEC_PACKAGES = Object.keys(manifest.dependencies).filter((name) => name.startsWith('@jsquash/'));

/**
 * Files the build emits with the codecs but the app never loads, kept out of the offline precache: the hqx and
 * magic-kernel resizers (the pipeline resizes with Lanczos3). The threaded AVIF and JPEG XL encoders are precached:
 * the page is cross-origin isolated (core/isolation.ts), so they are the ones that load on a desktop. oxipng's
 * threaded build is not emitted at all (see png/loader.ts), nor jSquash's JPEG XL encoders: the app builds its own
 * (wasm/jxl/build.sh).
 */
export const UNLOADED_CODEC_FILES = ['**/squooshhqx*', '**/jsquash_magic_kernel*'];
