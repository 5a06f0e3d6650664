import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { JpegliError, jpegliEncoder, type JpegliOptions } from '../../wasm/jpegli/jpegli.ts';

/** The committed build (wasm/jpegli/build.sh), run as the workers run it: compiled, instantiated, no glue. */
let encode: ReturnType<typeof jpegliEncoder>;
beforeAll(async () => {
  encode = jpegliEncoder(await WebAssembly.compile(readFileSync(new URL('../../wasm/jpegli/jpegli.wasm', import.meta.url))));
});

const DEFAULTS: JpegliOptions = { quality: 80, subsampling: '420', progressiveLevel: 2 };

/** A photo-like 640 × 480: smooth gradients, a hard edge and fine noise, so every part of the encoder has work. */
async function photo(width = 640, height = 480): Promise<{ data: Uint8Array; width: number; height: number }> {
  const data = new Uint8Array(width * height * 4);
  let seed = 7;
  const noise = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 24 - 12;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const edge = x > width / 2 ? 60 : 0;
      data[i] = Math.max(0, Math.min(255, (x / width) * 200 + edge + noise()));
      data[i + 1] = Math.max(0, Math.min(255, (y / height) * 180 + noise()));
      data[i + 2] = Math.max(0, Math.min(255, 120 + 60 * Math.sin(x / 23) + noise()));
      data[i + 3] = 255;
    }
  }
  return { data, width, height };
}

/** Mean absolute difference per channel between the source's RGB and a decoded JPEG's. */
async function meanDifference(source: { data: Uint8Array; width: number; height: number }, jpeg: ArrayBuffer): Promise<number> {
  const decoded = await sharp(Buffer.from(jpeg)).removeAlpha().raw().toBuffer();
  let sum = 0;
  for (let p = 0, q = 0; p < source.data.length; p += 4, q += 3) for (let c = 0; c < 3; c++) sum += Math.abs(source.data[p + c]! - decoded[q + c]!);
  return sum / ((source.data.length / 4) * 3);
}

describe('jpegli (wasm/jpegli): the optimised JPEG encoder', () => {
  it('encodes RGBA pixels to a JPEG that decodes (sharp) at the same size and close to the source', async () => {
    const source = await photo();
    const jpeg = await encode(source, DEFAULTS);
    const metadata = await sharp(Buffer.from(jpeg)).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 640, height: 480, channels: 3 });
    expect(await meanDifference(source, jpeg)).toBeLessThan(6);
  });

  it('gives fewer bytes for a lower quality, and more for a higher one', async () => {
    const source = await photo();
    const [low, middle, high] = await Promise.all([40, 80, 95].map(async (quality) => (await encode(source, { ...DEFAULTS, quality })).byteLength));
    expect(low).toBeLessThan(middle!);
    expect(middle).toBeLessThan(high!);
  });

  it('aims at a butteraugli distance when given one instead of the quality', async () => {
    const source = await photo();
    const near = await encode(source, { ...DEFAULTS, distance: 0.5 });
    const far = await encode(source, { ...DEFAULTS, distance: 3 });
    expect(near.byteLength).toBeGreaterThan(far.byteLength);
    expect(await meanDifference(source, near)).toBeLessThan(await meanDifference(source, far));
  });

  it('writes the chroma subsampling and the progressive level it is asked for', async () => {
    const source = await photo();
    const sequential444 = await sharp(Buffer.from(await encode(source, { ...DEFAULTS, subsampling: '444', progressiveLevel: 0 }))).metadata();
    expect(sequential444).toMatchObject({ chromaSubsampling: '4:4:4', isProgressive: false });
    const progressive420 = await sharp(Buffer.from(await encode(source, { ...DEFAULTS, subsampling: '420', progressiveLevel: 2 }))).metadata();
    expect(progressive420).toMatchObject({ chromaSubsampling: '4:2:0', isProgressive: true });
  });

  it('writes the same coefficients at every progressive level, at each subsampling and quality, off the block grid', async () => {
    // 333 × 77: rows that end mid-vector and blocks cut by the edge; quality 100 leaves large coefficients in every
    // band, quality 30 mostly zeros. A progressive file splits the coefficients into scans (DC, AC first passes, AC
    // refinements) and a sequential one writes them at once: decoded, all three levels must give the same pixels.
    const source = await photo(333, 77);
    const decode = async (jpeg: ArrayBuffer) => sharp(Buffer.from(jpeg)).removeAlpha().raw().toBuffer();
    for (const subsampling of ['420', '444'] as const) {
      for (const quality of [30, 100]) {
        const [sequential, ...progressive] = await Promise.all(([0, 1, 2] as const).map((progressiveLevel) => encode(source, { quality, subsampling, progressiveLevel })));
        expect(await meanDifference(source, sequential!)).toBeLessThan(quality === 100 ? 5 : 7);
        const pixels = await decode(sequential!);
        for (const jpeg of progressive) {
          expect((await sharp(Buffer.from(jpeg)).metadata()).isProgressive).toBe(true);
          expect((await decode(jpeg)).equals(pixels)).toBe(true);
        }
      }
    }
  });

  it('gives the same bytes from rows read a strip at a time, however they come, and one encode at a time', async () => {
    // 600 × 1000: three strips of jpegli's buffer, the last a short one. A frame's rows come after a wait each
    // (workers/pipeline/bitmap-pixels.ts frameRows); two encodes started together must not share jpegli's state.
    const source = await photo(600, 1000);
    const stride = source.width * 4;
    const strips: [number, number][] = [];
    const rows = {
      width: source.width,
      height: source.height,
      readRows: async (y: number, count: number, into: Uint8Array) => {
        strips.push([y, count]);
        await new Promise((resolve) => setTimeout(resolve, 1));
        into.set(source.data.subarray(y * stride, (y + count) * stride));
      },
    };
    const whole = Buffer.from(await encode(source, DEFAULTS));
    const [fromRows, alongside] = await Promise.all([encode(rows, DEFAULTS), encode(source, { ...DEFAULTS, quality: 60 })]);
    expect(Buffer.from(fromRows).equals(whole)).toBe(true);
    expect(Buffer.from(alongside).equals(Buffer.from(await encode(source, { ...DEFAULTS, quality: 60 })))).toBe(true);
    expect(strips.length).toBeGreaterThan(2);
    expect(strips.reduce((sum, [, count]) => sum + count, 0)).toBe(source.height);
    expect(strips.map(([y]) => y)).toEqual(strips.map((_, i) => i * strips[0]![1]));
  });

  it('fails with the rows\' own error when they cannot be read, and encodes the next image all the same', async () => {
    const source = await photo(64, 64);
    const unreadable = { width: 64, height: 64, readRows: () => Promise.reject(new Error('the frame was closed')) };
    await expect(encode(unreadable, DEFAULTS)).rejects.toThrow(/^the frame was closed$/);
    expect((await sharp(Buffer.from(await encode(source, DEFAULTS))).metadata()).width).toBe(64);
  });

  it('keeps the EXIF and the ICC profile it is handed', async () => {
    const source = await photo(64, 48);
    // A real EXIF block and ICC profile, as sharp writes them into a JPEG, read back out of its markers.
    const tagged = await sharp(Buffer.from(source.data), { raw: { width: 64, height: 48, channels: 4 } })
      .withExif({ IFD0: { Make: 'PixelTestCam', Model: 'Jpegli 1' } })
      .withIccProfile('p3')
      .jpeg()
      .toBuffer();
    const { exif, icc } = await sharp(tagged).metadata();
    const tiff = exif!.subarray(6); // without "Exif\0\0"
    const jpeg = Buffer.from(await encode(source, { ...DEFAULTS, exif: tiff, icc }));
    const written = await sharp(jpeg).metadata();
    expect(written.exif?.subarray(0, 6).toString('latin1')).toBe('Exif\0\0');
    expect(written.exif?.subarray(6).equals(tiff)).toBe(true);
    expect(written.icc?.equals(icc!)).toBe(true);
    expect(written.exif?.toString('latin1')).toContain('PixelTestCam');
  });

  it('surfaces jpegli\'s own message when it refuses an image, and encodes the next one all the same', async () => {
    // JPEG cannot hold a side over 65,535 pixels: jpegli says so, and the instance that failed is replaced.
    const tooWide = { data: new Uint8Array(70_000 * 4), width: 70_000, height: 1 };
    await expect(encode(tooWide, DEFAULTS)).rejects.toThrow(JpegliError);
    await expect(encode(tooWide, DEFAULTS)).rejects.toThrow(/^jpegli: lib\/jpegli\/encode\.cc:\d+: Input image too big/);
    const source = await photo(32, 32);
    expect((await sharp(Buffer.from(await encode(source, DEFAULTS))).metadata()).width).toBe(32);
  });

  it('refuses pixels that do not fill the size it is given, before jpegli reads past them', async () => {
    await expect(encode({ data: new Uint8Array(10), width: 4, height: 4 }, DEFAULTS)).rejects.toThrow(/expected 4 × 4 RGBA pixels, got 10 bytes/);
  });
});
