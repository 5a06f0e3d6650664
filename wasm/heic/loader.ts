import heifWasmUrl from 'libheif-js/libheif-wasm/libheif.wasm?url';
import { createRawImage, type RawImage } from '../../core/raw-image.ts';
import type { EmbeddedThumbnail } from '../codec.ts';
import { compileWasm, once } from '../once.ts';

/** What the app uses of libheif-js's Emscripten module (its own libheif.d.ts types the C API, not these classes). */
interface HeifImage {
  get_width(): number;
  get_height(): number;
  is_primary(): boolean;
  display(target: { data: Uint8ClampedArray; width: number; height: number }, done: (image: unknown) => void): void;
  free(): void;
}
interface LibHeif extends LibHeifC {
  HeifDecoder: new () => { decoder: number | null; decode(bytes: Uint8Array): HeifImage[] };
  heif_context_free(context: number): void;
}
/**
 * libheif's C API as the module exports it, for what libheif-js's classes do not reach (thumbnails). Pointers are
 * numbers into its heap; a function that returns a `heif_error` takes where to write it as its first argument.
 */
interface LibHeifC {
  HEAPU8: Uint8Array;
  HEAP32: Int32Array;
  HEAPU32: Uint32Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  _heif_context_alloc(): number;
  _heif_context_free(context: number): void;
  _heif_context_read_from_memory_without_copy(error: number, context: number, bytes: number, size: number, options: number): void;
  _heif_context_get_primary_image_handle(error: number, context: number, handle: number): void;
  _heif_image_handle_get_number_of_thumbnails(handle: number): number;
  _heif_image_handle_get_list_of_thumbnail_IDs(handle: number, ids: number, count: number): number;
  _heif_image_handle_get_thumbnail(error: number, handle: number, id: number, thumbnail: number): void;
  _heif_image_handle_get_width(handle: number): number;
  _heif_image_handle_get_height(handle: number): number;
  _heif_image_handle_release(handle: number): void;
  _heif_item_get_transformation_properties(context: number, item: number, list: number, count: number): number;
  _heif_decode_image(error: number, handle: number, image: number, colorspace: number, chroma: number, options: number): void;
  _heif_image_get_plane_readonly(image: number, channel: number, stride: number): number;
  _heif_image_get_width(image: number, channel: number): number;
  _heif_image_get_height(image: number, channel: number): number;
  _heif_image_release(image: number): void;
}
type LibHeifFactory = (options: {
  instantiateWasm: (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => WebAssembly.Exports;
  onRuntimeInitialized: () => void;
}) => LibHeif;

/**
 * libheif (LGPL, with libde265) built by libheif-js: its glue and its .wasm are files of their own, fetched and
 * compiled the first time a HEIC is converted in a browser that cannot decode it (Safari can), and precached. The
 * glue reads the module's exports as it starts, so the compiled module is instantiated synchronously (a worker may).
 */
const libheif = once(async (): Promise<LibHeif> => {
  const [glue, module] = await Promise.all([import('libheif-js/libheif-wasm/libheif.js'), compileWasm(heifWasmUrl)]);
  const factory = ((glue as unknown as { default?: LibHeifFactory }).default ?? glue) as unknown as LibHeifFactory;
  return new Promise((resolve) => {
    let started = false;
    let made: LibHeif | null = null;
    made = factory({
      instantiateWasm: (imports, done) => {
        const instance = new WebAssembly.Instance(module, imports);
        done(instance, module);
        return instance.exports;
      },
      onRuntimeInitialized: () => {
        started = true;
        if (made) resolve(made);
      },
    });
    if (started) resolve(made);
  });
});

/**
 * The primary image of a HEIC as RGBA, turned and mirrored as its `irot` and `imir` say (libheif applies them); its
 * EXIF orientation is not applied again (HEIF says the transformations in its boxes are the ones to show).
 */
export async function decodeHeic(buffer: ArrayBuffer): Promise<RawImage> {
  const lib = await libheif();
  const decoder = new lib.HeifDecoder();
  const images = decoder.decode(new Uint8Array(buffer));
  try {
    const image = images.find((candidate) => candidate.is_primary()) ?? images[0];
    if (!image) throw new Error('The HEIC file holds no image libheif can read');
    const [width, height] = [image.get_width(), image.get_height()];
    // The app's own buffer (createRawImage): the pipeline frees it once the encoder has its copy.
    const pixels = createRawImage(width, height);
    await new Promise<void>((resolve, reject) => image.display(pixels, (shown) => (shown ? resolve() : reject(new Error('libheif could not decode the HEIC image')))));
    return pixels;
  } finally {
    for (const image of images) image.free();
    if (decoder.decoder) lib.heif_context_free(decoder.decoder);
  }
}

/** libheif's enums, as heif_image.h numbers them. */
const HEIF_COLORSPACE_RGB = 1;
const HEIF_CHROMA_INTERLEAVED_RGBA = 11;
const HEIF_CHANNEL_INTERLEAVED = 10;

/**
 * The smallest thumbnail of a HEIC's primary image whose longer edge is at least `minLongEdge`, decoded; null when
 * the file has none that large, or libheif cannot read it. An iPhone's 12 MP photo carries one of 320 × 240: it
 * decodes in about 10 ms, where the photo itself takes a second (a grid of 48 tiles).
 */
export async function decodeHeicThumbnail(buffer: ArrayBuffer, minLongEdge: number): Promise<EmbeddedThumbnail | null> {
  const lib = await libheif();
  const scratch = lib._malloc(16);
  const bytes = lib._malloc(buffer.byteLength);
  const context = lib._heif_context_alloc();
  const held: number[] = [];
  /** Runs a call that writes a heif_error at `scratch` and its result at `scratch + 12`; gives the result, or null. */
  const pointerFrom = (call: (error: number, result: number) => void): number | null => {
    lib.HEAPU32[(scratch + 12) >> 2] = 0;
    call(scratch, scratch + 12);
    const pointer = lib.HEAPU32[(scratch + 12) >> 2]!;
    return lib.HEAP32[scratch >> 2] === 0 && pointer !== 0 ? pointer : null;
  };
  try {
    lib.HEAPU8.set(new Uint8Array(buffer), bytes);
    lib._heif_context_read_from_memory_without_copy(scratch, context, bytes, buffer.byteLength, 0);
    if (lib.HEAP32[scratch >> 2] !== 0) return null;
    const primary = pointerFrom((error, result) => lib._heif_context_get_primary_image_handle(error, context, result));
    if (primary === null) return null;
    held.push(primary);
    const count = lib._heif_image_handle_get_number_of_thumbnails(primary);
    if (count === 0) return null;
    const ids = lib._malloc(4 * count);
    const listed = lib._heif_image_handle_get_list_of_thumbnail_IDs(primary, ids, count);
    const thumbnailIds = Array.from(lib.HEAPU32.subarray(ids >> 2, (ids >> 2) + listed));
    lib._free(ids);
    let chosen: { handle: number; id: number; longEdge: number } | null = null;
    for (const id of thumbnailIds) {
      const handle = pointerFrom((error, result) => lib._heif_image_handle_get_thumbnail(error, primary, id, result));
      if (handle === null) continue;
      held.push(handle);
      const longEdge = Math.max(lib._heif_image_handle_get_width(handle), lib._heif_image_handle_get_height(handle));
      if (longEdge >= minLongEdge && (!chosen || longEdge < chosen.longEdge)) chosen = { handle, id, longEdge };
    }
    if (!chosen) return null;
    const { handle, id } = chosen;
    const decoded = pointerFrom((error, result) => lib._heif_decode_image(error, handle, result, HEIF_COLORSPACE_RGB, HEIF_CHROMA_INTERLEAVED_RGBA, 0));
    if (decoded === null) return null;
    try {
      const width = lib._heif_image_get_width(decoded, HEIF_CHANNEL_INTERLEAVED);
      const height = lib._heif_image_get_height(decoded, HEIF_CHANNEL_INTERLEAVED);
      const plane = lib._heif_image_get_plane_readonly(decoded, HEIF_CHANNEL_INTERLEAVED, scratch);
      const stride = lib.HEAP32[scratch >> 2]!;
      if (plane === 0 || width <= 0 || height <= 0) return null;
      const data = new Uint8ClampedArray(width * height * 4);
      for (let row = 0; row < height; row++) data.set(lib.HEAPU8.subarray(plane + row * stride, plane + row * stride + width * 4), row * width * 4);
      return { image: { data, width, height }, turnedOwnWay: lib._heif_item_get_transformation_properties(context, id, 0, 0) > 0 };
    } finally {
      lib._heif_image_release(decoded);
    }
  } finally {
    for (const handle of held) lib._heif_image_handle_release(handle);
    lib._heif_context_free(context);
    lib._free(bytes);
    lib._free(scratch);
  }
}
