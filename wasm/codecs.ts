/**
 * The codec list, as plain data for the build (vite.config.ts): the runtime loaders are the other modules of this
 * folder, and only wasm/ imports @jsquash.
 */

/** Packages whose modules find their .wasm relative to themselves: Vite must not pre-bundle them. */
export const CODEC_PACKAGES = ['@jsquash/avif', '@jsquash/webp', '@jsquash/jpeg', '@jsquash/png', '@jsquash/resize', '@jsquash/oxipng'];

/**
 * Files the build emits with the codecs but the app never loads, kept out of the offline precache: the threaded AVIF
 * encoder (it needs cross-origin isolation, which static hosts do not give) and the hqx and magic-kernel resizers (the
 * pipeline resizes with Lanczos3). oxipng's threaded build is not emitted at all (see png.ts).
 */
export const UNLOADED_CODEC_FILES = ['**/avif_enc_mt*', '**/squooshhqx*', '**/jsquash_magic_kernel*'];
