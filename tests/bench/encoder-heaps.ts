/**
 * `npm run bench:heaps`: how far each optimising WASM encoder's heap grows for one encode, with the app's options
 * (the registry's optimisedOptions, at quality 80), the Lanczos3 resizer's for one resize to 1920 wide, and libjxl's
 * decoder's for one JPEG XL file (cjxl's: lossy and lossless, opaque and with alpha), on synthetic photos of 3, 12 and
 * 48 MP. A WASM heap grows and never shrinks while its worker lives, so what one run grows it to is memory its job
 * holds: core/plan.ts counts it in a job's cost at the registry's `encoderHeapBytesPerPixel` (and
 * `encoderHeapStreaming`), at RESIZER_HEAP_BYTES and at `decoderBytesPerPixel`, which this measures. Each run is
 * in Node's V8 (the engine a Chromium worker runs them in), in a process of its own: the heap one run grows, from
 * nothing.
 */
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { FormatInfo } from '../../core/format.ts';
import { FORMATS, SOURCE_FORMATS } from '../../core/formats.ts';
import { RESIZER_HEAP_BYTES } from '../../core/plan.ts';
import { LANCZOS3_OPTIONS } from '../../wasm/resize/options.ts';
import { jpegliOptions } from '../../wasm/jpeg/options.ts';
import { photoSet } from './inputs.ts';
import { libjxlOptions } from '../../wasm/jxl/options.ts';
import { compilePackageWasm as wasm, decodeRgba, loadJpegli, loadLibjxl, loadLibjxlDecoder, type Rgba } from './node-codecs.ts';

const QUALITY = 80;
const MB = 1024 * 1024;

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

type Encode = (image: Rgba) => Promise<unknown>;

/** A jSquash encoder (its glue, and the .wasm the app ships of it) with the registry's options at QUALITY. */
function jsquash(glue: string, wasmPath: string, options: object): () => Promise<Encode> {
  return async () => {
    const codec = (await import(glue)) as { init(module: WebAssembly.Module): Promise<unknown>; default(image: ImageData, options: object): Promise<ArrayBuffer> };
    await codec.init(await wasm(wasmPath));
    return (image) => codec.default(image as ImageData, { ...options, quality: QUALITY });
  };
}

/** A fresh encoder instance, and the function that encodes with it. */
const encoders: Record<'webp' | 'jpeg' | 'avif' | 'png' | 'jxl', () => Promise<Encode>> = {
  webp: jsquash('@jsquash/webp/encode.js', '@jsquash/webp/codec/enc/webp_enc_simd.wasm', FORMATS.webp.optimisedOptions),
  jpeg: async () => {
    const encode = await loadJpegli();
    return (image) => encode(image, jpegliOptions(QUALITY / 100));
  },
  avif: jsquash('@jsquash/avif/encode.js', '@jsquash/avif/codec/enc/avif_enc.wasm', FORMATS.avif.optimisedOptions),
  jxl: async () => {
    const encode = await loadLibjxl();
    return async (image) => encode(image, libjxlOptions(QUALITY / 100, { thorough: true }));
  },
  png: async () => {
    const codec = await import('@jsquash/oxipng/codec/pkg/squoosh_oxipng.js');
    await codec.default(await wasm('@jsquash/oxipng/codec/pkg/squoosh_oxipng_bg.wasm'));
    const { level, interlace, optimiseAlpha } = FORMATS.png.optimisedOptions;
    return async (image) => codec.optimise_raw(image.data, image.width, image.height, level, interlace, optimiseAlpha);
  },
};

/** Lanczos3 to 1920 wide, with the app's options. */
async function resizeForTheWeb(): Promise<Encode> {
  const { default: resize, initResize } = await import('@jsquash/resize');
  await initResize(await wasm('@jsquash/resize/lib/resize/pkg/squoosh_resize_bg.wasm'));
  return (image) => resize(image as ImageData, { width: 1920, height: Math.round((1920 * image.height) / image.width), ...LANCZOS3_OPTIONS });
}

/**
 * libjxl's decoder on the picture as libjxl's own cjxl writes it at `distance` (0: lossless), opaque or with an alpha
 * channel (a gradient across the picture): the file is made first, natively, so the heap measured is the decoder's alone.
 */
function decodeJxl(distance: number, withAlpha: boolean): () => Promise<Encode> {
  return async () => {
    const decode = await loadLibjxlDecoder();
    return async (image) => {
      const dir = mkdtempSync(join(tmpdir(), 'heaps-jxl-'));
      try {
        const rgba = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
        if (withAlpha) for (let i = 0; i < image.width * image.height; i++) rgba[i * 4 + 3] = Math.round(((i % image.width) / image.width) * 255);
        const picture = sharp(rgba, { raw: { width: image.width, height: image.height, channels: 4 } });
        await (withAlpha ? picture : picture.removeAlpha()).png({ compressionLevel: 1 }).toFile(join(dir, 'in.png'));
        execFileSync('cjxl', [join(dir, 'in.png'), join(dir, 'in.jxl'), '-d', String(distance), '-e', '3', '--quiet']);
        return decode(readFileSync(join(dir, 'in.jxl')));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
  };
}

/** What core/plan.ts counts of an encoder's heap (FormatInfo.encoderHeapBytesPerPixel, encoderHeapStreaming). */
function countedHeap(format: Pick<FormatInfo, 'encoderHeapBytesPerPixel' | 'encoderHeapStreaming'>): string {
  const streaming = format.encoderHeapStreaming;
  return streaming ? `${format.encoderHeapBytesPerPixel} up to ${(streaming.pixels / 1e6).toFixed(1)} MP, ${streaming.bytesPerPixelBeyond} beyond` : String(format.encoderHeapBytesPerPixel);
}

/** What each row measures, and the bytes per pixel the app's costs count for it. */
const measured: Record<string, { start: () => Promise<Encode>; counted: string }> = {
  ...Object.fromEntries(Object.entries(encoders).map(([format, start]) => [format, { start, counted: countedHeap(FORMATS[format as keyof typeof encoders]) }])),
  'resize to 1920 wide': { start: resizeForTheWeb, counted: `${RESIZER_HEAP_BYTES.perSourcePixel} a source pixel + ${RESIZER_HEAP_BYTES.perOutputPixel} an output pixel` },
  'jxl decode (lossy)': { start: decodeJxl(1, false), counted: `${SOURCE_FORMATS.jxl.decoderBytesPerPixel}` },
  'jxl decode (lossy, with alpha)': { start: decodeJxl(1, true), counted: `${SOURCE_FORMATS.jxl.decoderBytesPerPixel}` },
  'jxl decode (lossless)': { start: decodeJxl(0, false), counted: `${SOURCE_FORMATS.jxl.decoderBytesPerPixel}` },
  'jxl decode (lossless, with alpha)': { start: decodeJxl(0, true), counted: `${SOURCE_FORMATS.jxl.decoderBytesPerPixel}` },
};

/** In a process of its own (a heap never shrinks, and some glue starts once per process): one run's heap, in bytes. */
async function measureOne(name: string, path: string): Promise<void> {
  const image = await decodeRgba(readFileSync(path));
  const encode = await measured[name]!.start();
  await encode(image);
  process.send!({ heap: lastMemory ? lastMemory.buffer.byteLength : NaN, pixels: image.width * image.height });
}

function inChild(name: string, path: string): Promise<{ heap: number; pixels: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--one', name, path]);
    child.once('message', (message) => resolve(message as { heap: number; pixels: number }));
    child.once('exit', (code) => reject(new Error(`${name} on ${path}: the measuring process ended (${code})`)));
  });
}

async function main() {
  const paths = [(await photoSet(1, 2000, 1500)).paths[0]!, (await photoSet(1, 4000, 3000)).paths[0]!, (await photoSet(1, 8000, 6000)).paths[0]!];
  const lines = ["| WASM codec (the app's options) | 3 MP | 12 MP | 48 MP | counted (bytes per pixel) |", '| --- | --- | --- | --- | --- |'];
  // `--only jxl` (the start of a row's name): those rows alone.
  const only = process.argv.indexOf('--only');
  for (const name of Object.keys(measured).filter((row) => only === -1 || row.startsWith(process.argv[only + 1]!))) {
    const cells: string[] = [];
    for (const path of paths) {
      // An encoder whose heap would pass WASM's 4 GB (or its build's own limit) ends its process: that is the figure.
      const measuredRun = await inChild(name, path).catch((error: Error) => error);
      if (measuredRun instanceof Error) cells.push('failed (out of memory)');
      else cells.push(`${(measuredRun.heap / MB).toFixed(0)} MB (${(measuredRun.heap / measuredRun.pixels).toFixed(1)} B/px)`);
    }
    const line = `| ${name} | ${cells.join(' | ')} | ${measured[name]!.counted} |`;
    console.log(line);
    lines.push(line);
  }
  console.log(`\n${lines.join('\n')}`);
}

const one = process.argv.indexOf('--one');
await (one === -1 ? main() : measureOne(process.argv[one + 1]!, process.argv[one + 2]!));
