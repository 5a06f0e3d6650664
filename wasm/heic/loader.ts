import heifWasmUrl from 'libheif-js/libheif-wasm/libheif.wasm?url';
import type { RawImage } from '../../core/raw-image.ts';
import { compileWasm, once } from '../once.ts';

/** What the app uses of libheif-js's Emscripten module (its own libheif.d.ts types the C API, not these classes). */
interface HeifImage {
  get_width(): number;
  get_height(): number;
  is_primary(): boolean;
  display(target: { data: Uint8ClampedArray; width: number; height: number }, done: (image: unknown) => void): void;
  free(): void;
}
interface LibHeif {
  HeifDecoder: new () => { decoder: number | null; decode(bytes: Uint8Array): HeifImage[] };
  heif_context_free(context: number): void;
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
    const data = new Uint8ClampedArray(width * height * 4);
    await new Promise<void>((resolve, reject) => image.display({ data, width, height }, (shown) => (shown ? resolve() : reject(new Error('libheif could not decode the HEIC image')))));
    return { data, width, height };
  } finally {
    for (const image of images) image.free();
    if (decoder.decoder) lib.heif_context_free(decoder.decoder);
  }
}
