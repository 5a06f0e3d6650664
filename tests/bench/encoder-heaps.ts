/**
 * `npm run bench:heaps`: how far each optimising WASM encoder's heap grows for one encode, with the app's options
 * (the registry's optimisedOptions, at quality 80), on synthetic photos of 3 and 12 MP. A WASM heap grows and never
 * shrinks while its worker lives, so what one encode grows it to is memory its job holds: core/plan.ts counts it in
 * a job's cost at the registry's `encoderHeapBytesPerPixel`, which this measures. Each encoder runs in Node's V8 (the
 * engine a Chromium worker runs them in) from a fresh instance, a 3 MP photo first, then a 12 MP one.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { FORMATS } from '../../core/formats';
import { photoSet } from './inputs';

const QUALITY = 80;
const MB = 1024 * 1024;
const require = createRequire(import.meta.url);
const wasm = (path: string) => WebAssembly.compile(readFileSync(require.resolve(path)));

interface Rgba {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/** The memory of the WASM instance made last: the glue keeps its own out of reach, so instantiation is watched. */
let lastMemory: WebAssembly.Memory | null = null;
const memoryOf = (instance: WebAssembly.Instance) => Object.values(instance.exports).find((value) => value instanceof WebAssembly.Memory) ?? null;
const NativeInstance = WebAssembly.Instance;
function WatchedInstance(module: WebAssembly.Module, imports?: WebAssembly.Imports) {
  const instance = new NativeInstance(module, imports);
  lastMemory = memoryOf(instance);
  return instance;
}
// `instanceof WebAssembly.Instance` (wasm-bindgen's glue asks) still holds.
WatchedInstance.prototype = NativeInstance.prototype;
WebAssembly.Instance = WatchedInstance as unknown as typeof WebAssembly.Instance;
const nativeInstantiate = WebAssembly.instantiate.bind(WebAssembly) as (source: unknown, imports?: WebAssembly.Imports) => Promise<unknown>;
WebAssembly.instantiate = (async (source: unknown, imports?: WebAssembly.Imports) => {
  const result = await nativeInstantiate(source, imports);
  const instance = result instanceof NativeInstance ? result : (result as WebAssembly.WebAssemblyInstantiatedSource).instance;
  lastMemory = memoryOf(instance);
  return result;
}) as typeof WebAssembly.instantiate;

async function decode(path: string): Promise<Rgba> {
  const { data, info } = await sharp(readFileSync(path)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

type Encode = (image: Rgba) => Promise<unknown>;

/** A fresh encoder instance, and the function that encodes with it. */
const encoders: Record<'webp' | 'jpeg' | 'avif' | 'png', () => Promise<Encode>> = {
  webp: async () => {
    const codec = await import('@jsquash/webp/encode.js');
    await codec.init(await wasm('@jsquash/webp/codec/enc/webp_enc_simd.wasm'));
    return (image) => codec.default(image as ImageData, { ...FORMATS.webp.optimisedOptions, quality: QUALITY });
  },
  jpeg: async () => {
    const codec = await import('@jsquash/jpeg/encode.js');
    await codec.init(await wasm('@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm'));
    return (image) => codec.default(image as ImageData, { ...FORMATS.jpeg.optimisedOptions, quality: QUALITY });
  },
  avif: async () => {
    const codec = await import('@jsquash/avif/encode.js');
    await codec.init(await wasm('@jsquash/avif/codec/enc/avif_enc.wasm'));
    return (image) => codec.default(image as ImageData, { ...FORMATS.avif.optimisedOptions, quality: QUALITY });
  },
  png: async () => {
    const codec = await import('@jsquash/oxipng/codec/pkg/squoosh_oxipng.js');
    await codec.default(await wasm('@jsquash/oxipng/codec/pkg/squoosh_oxipng_bg.wasm'));
    const { level, interlace, optimiseAlpha } = FORMATS.png.optimisedOptions;
    return async (image) => codec.optimise_raw(image.data, image.width, image.height, level, interlace, optimiseAlpha);
  },
};

async function main() {
  const images = [await decode((await photoSet(1, 2000, 1500)).paths[0]!), await decode((await photoSet(1, 4000, 3000)).paths[0]!)];
  const lines = ['| encoder (the app\'s options) | heap at start | after 3 MP | after 12 MP | registry (bytes per pixel) |', '| --- | --- | --- | --- | --- |'];
  for (const [format, start] of Object.entries(encoders)) {
    lastMemory = null;
    const encode = await start();
    const heap = () => (lastMemory ? lastMemory.buffer.byteLength : NaN);
    const cells = [`${(heap() / MB).toFixed(0)} MB`];
    for (const image of images) {
      await encode(image);
      cells.push(`${(heap() / MB).toFixed(0)} MB (${(heap() / (image.width * image.height)).toFixed(1)} B/px)`);
    }
    const line = `| ${format} | ${cells.join(' | ')} | ${FORMATS[format as keyof typeof encoders].encoderHeapBytesPerPixel} |`;
    console.log(line);
    lines.push(line);
  }
  console.log(`\n${lines.join('\n')}`);
}

await main();
