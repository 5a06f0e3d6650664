/**
 * jpegli (wasm/jpegli/jpegli.wasm, built by build.sh) as a function: RGBA pixels in, JPEG bytes out. The module is a
 * WASI reactor with no JavaScript glue: it imports four WASI calls, of which only fd_write is ever reached (jpegli's
 * own messages, which the wrapper turns off), so they are answered here rather than by a WASI runtime.
 *
 * Plain module, no DOM, for a worker and for Node alike: the JPEG codec's optimised encoder (wasm/jpeg/loader.ts), the
 * unit tests and `npm run bench:encoders` run it.
 */
import type { PixelRows } from '../../core/raw-image.ts';

export interface JpegliOptions {
  /** libjpeg's 1–100 scale, as the browser's encoder takes it (× 100); jpegli maps it to a butteraugli distance. */
  quality: number;
  /** A butteraugli distance to aim at instead of `quality` (jpegli's own unit); unset for the quality. */
  distance?: number;
  /** Chroma at full resolution (4:4:4) or halved both ways (4:2:0). */
  subsampling: '444' | '420';
  /** 0 is sequential; 1 and 2 are jpegli's progressive scan scripts (2 is its default). */
  progressiveLevel: 0 | 1 | 2;
  /** The EXIF payload (the TIFF structure, without "Exif\0\0"), written as APP1. */
  exif?: Uint8Array;
  /** An ICC profile, written as APP2 ICC_PROFILE chunks. */
  icc?: Uint8Array;
}

interface JpegliExports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  pc_alloc(size: number): number;
  pc_free(pointer: number): void;
  pc_start(width: number, height: number, quality: number, distance: number, subsampling: number, progressive: number, exif: number, exifSize: number, icc: number, iccSize: number, bufferRows: number): number;
  pc_write_rows(count: number): void;
  pc_finish(): void;
  pc_output(): number;
  pc_output_size(): number;
  pc_error(): number;
  pc_release(): void;
}

/** What jpegli says when it refuses an encode (a dimension over its limit, a marker too long): its own message. */
export class JpegliError extends Error {
  override name = 'JpegliError';
}

/** A strip of rows the source could not give (PixelRows.readRows threw): its own error, carried past jpegli's. */
class RowsUnread {
  constructor(readonly cause: unknown) {}
}

const ERRNO_BADF = 8;

/** The four WASI calls the module imports. Nothing is written anywhere: jpegli's messages are dropped. */
function wasiImports(memory: () => WebAssembly.Memory) {
  return {
    wasi_snapshot_preview1: {
      fd_write: (_fd: number, iovs: number, count: number, written: number) => {
        const view = new DataView(memory().buffer);
        let bytes = 0;
        for (let i = 0; i < count; i++) bytes += view.getUint32(iovs + i * 8 + 4, true);
        view.setUint32(written, bytes, true);
        return 0;
      },
      fd_close: () => ERRNO_BADF,
      fd_seek: () => ERRNO_BADF,
      proc_exit: (code: number) => {
        throw new JpegliError(`jpegli exited with ${code}`);
      },
    },
  };
}

async function instantiate(module: WebAssembly.Module): Promise<JpegliExports> {
  let exports: JpegliExports | null = null;
  const instance = await WebAssembly.instantiate(module, wasiImports(() => exports!.memory));
  exports = instance.exports as unknown as JpegliExports;
  exports._initialize();
  return exports;
}

function readCString(memory: WebAssembly.Memory, pointer: number): string {
  const bytes = new Uint8Array(memory.buffer, pointer);
  return new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
}

/**
 * How much of the picture goes into jpegli's heap at a time: a strip of rows that stays in the CPU's cache while jpegli
 * reads it, where the whole picture (48 MB at 12 MP) would double the heap and be copied through main memory. 1 MB:
 * a strip read straight out of a decoded frame costs a call each (workers/pipeline/bitmap-pixels.ts), and 256 KB
 * strips took longer; from a whole picture in memory, 64 KB, 256 KB and 1 MB time the same.
 */
const STRIP_BYTES = 1024 * 1024;

/** Pixels already in memory, as rows. */
function rowsOf(image: { data: Uint8ClampedArray | Uint8Array; width: number; height: number }): PixelRows {
  const stride = image.width * 4;
  if (image.data.length !== stride * image.height) throw new JpegliError(`expected ${image.width} × ${image.height} RGBA pixels, got ${image.data.length} bytes`);
  return { width: image.width, height: image.height, readRows: (y, count, into) => into.set(image.data.subarray(y * stride, (y + count) * stride)) };
}

const isRows = (image: object): image is PixelRows => 'readRows' in image;

/**
 * An encoder over one compiled module. An instance whose encode failed is dropped (jpegli's error handling ends in a
 * trap, mid-encode) and the next encode starts a fresh one from the same module.
 */
export function jpegliEncoder(module: WebAssembly.Module) {
  let instance: Promise<JpegliExports> | null = null;
  // One encode at a time: jpegli's state is the instance's, and an encode whose rows come from a frame waits between
  // strips, where a second encode (a warm-up, the next job) must not start on the same instance.
  let previous: Promise<unknown> = Promise.resolve();

  async function encodeNow(rows: PixelRows, options: JpegliOptions): Promise<ArrayBuffer> {
    instance ??= instantiate(module);
    const jpegli = await instance;
    const { width, height } = rows;
    const copyIn = (bytes: Uint8Array | undefined): [number, number] => {
      if (!bytes || bytes.length === 0) return [0, 0];
      const pointer = jpegli.pc_alloc(bytes.length);
      if (pointer === 0) throw new JpegliError(`out of memory for ${bytes.length} bytes`);
      new Uint8Array(jpegli.memory.buffer, pointer, bytes.length).set(bytes);
      return [pointer, bytes.length];
    };
    const exif = copyIn(options.exif);
    const icc = copyIn(options.icc);
    const stride = width * 4;
    const bufferRows = Math.max(1, Math.min(height, Math.floor(STRIP_BYTES / stride)));
    try {
      const buffer = jpegli.pc_start(
        width,
        height,
        Math.max(1, Math.min(100, Math.round(options.quality))),
        options.distance ?? 0,
        options.subsampling === '444' ? 1 : 0,
        options.progressiveLevel,
        ...exif,
        ...icc,
        bufferRows,
      );
      if (buffer === 0) throw new JpegliError(`out of memory for ${bufferRows} rows of ${width} pixels`);
      for (let row = 0; row < height; row += bufferRows) {
        const count = Math.min(bufferRows, height - row);
        // A view made each time: jpegli's heap may have grown (and its buffer moved) since the last strip.
        try {
          await rows.readRows(row, count, new Uint8Array(jpegli.memory.buffer, buffer, count * stride));
        } catch (error) {
          // The source's failure, not jpegli's: said as it is, once the half-done instance is let go (below).
          throw new RowsUnread(error);
        }
        jpegli.pc_write_rows(count);
      }
      jpegli.pc_finish();
    } catch (error) {
      instance = null;
      if (error instanceof RowsUnread) throw error.cause;
      if (error instanceof JpegliError) throw error;
      const message = error instanceof WebAssembly.RuntimeError ? readCString(jpegli.memory, jpegli.pc_error()) : '';
      throw new JpegliError(message ? `jpegli: ${message}` : `jpegli failed: ${String(error)}`);
    }
    for (const [pointer] of [exif, icc]) if (pointer) jpegli.pc_free(pointer);
    const output = new Uint8Array(jpegli.memory.buffer, jpegli.pc_output(), jpegli.pc_output_size()).slice();
    jpegli.pc_release();
    return output.buffer;
  }

  /** RGBA pixels in memory, or rows read a strip at a time as jpegli takes them. */
  return function encodeJpegli(image: PixelRows | { data: Uint8ClampedArray | Uint8Array; width: number; height: number }, options: JpegliOptions): Promise<ArrayBuffer> {
    const encoded = previous.then(() => encodeNow(isRows(image) ? image : rowsOf(image), options));
    previous = encoded.catch(() => undefined);
    return encoded;
  };
}
