import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/features/settings/settings';
import { CONVERSION_ERRORS } from '../../core/messages';
import { detectFormat, sourceFormatInfo } from '../../core/formats';
import { planJob } from '../../core/plan';
import { readImageHeader } from '../../src/conversion/probe';
import { resizeLanczos3, SOURCE_CODECS } from '../../wasm';
import { toImageData } from '../../workers/pipeline/canvas-encoder';
import { convertImage } from '../../workers/pipeline/convert';
import { photoPixels } from '../fixtures/make-fixtures';
import { chromiumCanvas } from './support/canvas';
import { serveBuildAssets } from './support/serveBuildAssets';

/**
 * HEIC through libheif in WebAssembly (wasm/heic), in Node as in a browser without a HEIC decoder: files made here
 * by libheif's own encoder (heif-enc with x265, Debian's libheif-examples), decoded, and converted by the worker's
 * pipeline.
 */

const WIDTH = 64;
const HEIGHT = 48;
let work = '';
const heic: Record<'eight' | 'ten', Buffer> = { eight: Buffer.alloc(0), ten: Buffer.alloc(0) };

beforeAll(async () => {
  serveBuildAssets();
  // Node has no ImageData; the encoders take one. jSquash's own Node glue defines this same shape when it loads.
  (globalThis as { ImageData?: unknown }).ImageData ??= class {
    constructor(
      readonly data: Uint8ClampedArray,
      readonly width: number,
      readonly height: number,
    ) {}
  };
  work = mkdtempSync(join(tmpdir(), 'heic-'));
  const rgb = photoPixels(WIDTH, HEIGHT, 4);
  await sharp(rgb, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).png().toFile(join(work, 'photo.png'));
  await sharp(rgb, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).toColourspace('rgb16').png().toFile(join(work, 'photo-16.png'));
  execFileSync('heif-enc', ['-q', '90', '-o', join(work, 'eight.heic'), join(work, 'photo.png')]);
  execFileSync('heif-enc', ['-b', '10', '-q', '90', '-o', join(work, 'ten.heic'), join(work, 'photo-16.png')]);
  heic.eight = readFileSync(join(work, 'eight.heic'));
  heic.ten = readFileSync(join(work, 'ten.heic'));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A box's size and type at `at`, and where its content starts (after a 64-bit size when it has one). */
function boxAt(bytes: Buffer, at: number): { size: number; type: string; content: number } {
  const size = bytes.readUInt32BE(at);
  return size === 1 ? { size: Number(bytes.readBigUInt64BE(at + 8)), type: bytes.toString('latin1', at + 4, at + 8), content: at + 16 } : { size, type: bytes.toString('latin1', at + 4, at + 8), content: at + 8 };
}

/** The child boxes of the box whose content is bytes[start, end). */
function childrenOf(bytes: Buffer, start: number, end: number): { at: number; size: number; type: string; content: number }[] {
  const found = [];
  for (let at = start; at + 8 <= end; ) {
    const box = boxAt(bytes, at);
    found.push({ at, ...box });
    at += box.size;
  }
  return found;
}

/** A box of `type` around `payload`. */
function box(type: string, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + payload.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, payload]);
}

/**
 * The HEIF with an `irot` of `quarterTurns` (anticlockwise) given to its primary item, as an iPhone marks a photo
 * taken upright: heif-enc 1.15 writes none. The property goes at the end of `ipco`, its association into `ipma`, and
 * `iloc`'s file offsets move by what `meta` grew.
 */
function withIrot(heif: Buffer, quarterTurns: number): Buffer {
  const top = childrenOf(heif, 0, heif.length);
  const meta = top.find((b) => b.type === 'meta')!;
  const parts = childrenOf(heif, meta.content + 4, meta.at + meta.size);
  const iprp = parts.find((b) => b.type === 'iprp')!;
  const [ipco, ipma] = ['ipco', 'ipma'].map((type) => childrenOf(heif, iprp.content, iprp.at + iprp.size).find((b) => b.type === type)!) as [ReturnType<typeof childrenOf>[number], ReturnType<typeof childrenOf>[number]];
  const properties = childrenOf(heif, ipco.content, ipco.at + ipco.size).length;
  const newIpco = box('ipco', Buffer.concat([heif.subarray(ipco.content, ipco.at + ipco.size), box('irot', Buffer.from([quarterTurns]))]));
  // ipma: version 0, flags 0 (8-bit associations): the primary item (1) gains one, essential.
  const primary = heif.readUInt16BE(parts.find((b) => b.type === 'pitm')!.content + 4);
  const entries: Buffer[] = [];
  const ipmaBody = ipma.content + 4;
  let at = ipmaBody + 4;
  for (let i = 0; i < heif.readUInt32BE(ipmaBody); i++) {
    const item = heif.readUInt16BE(at);
    const count = heif[at + 2]!;
    const associations = heif.subarray(at + 3, at + 3 + count);
    entries.push(item === primary ? Buffer.concat([heif.subarray(at, at + 2), Buffer.from([count + 1]), associations, Buffer.from([0x80 | (properties + 1)])]) : heif.subarray(at, at + 3 + count));
    at += 3 + count;
  }
  const newIpma = box('ipma', Buffer.concat([heif.subarray(ipma.content, ipmaBody + 4), ...entries]));
  const newIprp = box('iprp', Buffer.concat(childrenOf(heif, iprp.content, iprp.at + iprp.size).map((b) => (b.type === 'ipco' ? newIpco : b.type === 'ipma' ? newIpma : heif.subarray(b.at, b.at + b.size)))));
  const grown = newIprp.length - iprp.size;
  const newParts = parts.map((b) => (b.type === 'iprp' ? newIprp : b.type === 'iloc' ? shiftedIloc(heif.subarray(b.at, b.at + b.size), grown) : heif.subarray(b.at, b.at + b.size)));
  const newMeta = box('meta', Buffer.concat([heif.subarray(meta.content, meta.content + 4), ...newParts]));
  return Buffer.concat([heif.subarray(0, meta.at), newMeta, heif.subarray(meta.at + meta.size)]);
}

/** An `iloc` box whose file offsets (construction method 0) point `delta` bytes further. */
function shiftedIloc(iloc: Buffer, delta: number): Buffer {
  const out = Buffer.from(iloc);
  const version = out[8]!;
  const [offsetSize, lengthSize, baseSize] = [out[12]! >> 4, out[12]! & 15, out[13]! >> 4];
  const indexSize = version > 0 ? out[13]! & 15 : 0;
  const read = (at: number, size: number) => (size === 0 ? 0 : size === 4 ? out.readUInt32BE(at) : Number(out.readBigUInt64BE(at)));
  const write = (at: number, size: number, value: number) => (size === 4 ? out.writeUInt32BE(value, at) : size === 8 ? out.writeBigUInt64BE(BigInt(value), at) : undefined);
  let at = 14;
  const items = version < 2 ? out.readUInt16BE(at) : out.readUInt32BE(at);
  at += version < 2 ? 2 : 4;
  for (let i = 0; i < items; i++) {
    at += version < 2 ? 2 : 4;
    const method = version > 0 ? out.readUInt16BE(at) & 15 : 0;
    if (version > 0) at += 2;
    at += 2;
    const base = read(at, baseSize);
    if (method === 0 && baseSize > 0 && base > 0) write(at, baseSize, base + delta);
    at += baseSize;
    const extents = out.readUInt16BE(at);
    at += 2;
    for (let e = 0; e < extents; e++) {
      at += indexSize;
      if (method === 0 && (baseSize === 0 || base === 0)) write(at, offsetSize, read(at, offsetSize) + delta);
      at += offsetSize + lengthSize;
    }
  }
  return out;
}

/** The mean difference per channel from the picture the files were made from (0–255). */
function differenceFromSource(rgba: Uint8ClampedArray, source: Buffer = photoPixels(WIDTH, HEIGHT, 4)): number {
  let sum = 0;
  for (let i = 0; i < WIDTH * HEIGHT; i++) for (let c = 0; c < 3; c++) sum += Math.abs(source[i * 3 + c]! - rgba[i * 4 + c]!);
  return sum / (WIDTH * HEIGHT * 3);
}

describe('HEIC', () => {
  it('is recognised by its ftyp brand, and its header gives the size', async () => {
    for (const bytes of [heic.eight, heic.ten]) {
      expect(detectFormat(bytes)).toBe('heic');
      expect(await readImageHeader('heic', new Uint8Array(bytes))).toEqual({ size: { width: WIDTH, height: HEIGHT }, turned: false });
    }
  });

  it('8- and 10-bit files decode through libheif to the picture they were made from', async () => {
    for (const bytes of [heic.eight, heic.ten]) {
      const image = await SOURCE_CODECS.heic.decode(new Uint8Array(bytes).slice().buffer);
      expect([image.width, image.height]).toEqual([WIDTH, HEIGHT]);
      expect(differenceFromSource(image.data)).toBeLessThan(6);
    }
  });

  it('a photo an iPhone marks upright with irot: turned in the header, shown turned by libheif, converted upright', async () => {
    const turned = withIrot(heic.eight, 1);
    expect(await readImageHeader('heic', new Uint8Array(turned))).toEqual({ size: { width: WIDTH, height: HEIGHT }, turned: true });
    const image = await SOURCE_CODECS.heic.decode(new Uint8Array(turned).slice().buffer);
    expect([image.width, image.height]).toEqual([HEIGHT, WIDTH]);
    // irot 1 is a quarter turn anticlockwise: sharp's rotate(270).
    const upright = await sharp(photoPixels(WIDTH, HEIGHT, 4), { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).rotate(270).raw().toBuffer();
    expect(differenceFromSource(image.data, upright)).toBeLessThan(6);
    const header = (await readImageHeader('heic', new Uint8Array(turned)))!;
    const all = { ...DEFAULT_SETTINGS, outputFormat: 'png' as const };
    const request = { file: new Blob([new Uint8Array(turned)]), settings: all, plan: planJob({ format: 'heic', ...header }, all, chromiumCanvas), pixelLimit: 100_000_000, decodeAlone: true, alone: true, keepAt: null, judgeLater: false };
    const result = await convertImage(request, (raw, width, height) => resizeLanczos3(toImageData(raw), width, height), () => {});
    expect([result.width, result.height]).toEqual([HEIGHT, WIDTH]);
  });

  it('converts to JPG and PNG through the worker pipeline, at its size', async () => {
    const settings = { ...DEFAULT_SETTINGS, outputFormat: 'png' as const };
    const header = (await readImageHeader('heic', new Uint8Array(heic.eight)))!;
    for (const outputFormat of ['jpeg', 'png'] as const) {
      const all = { ...settings, outputFormat };
      const file = new Blob([new Uint8Array(heic.eight)], { type: sourceFormatInfo('heic').mimeType });
      const request = { file, settings: all, plan: planJob({ format: 'heic', ...header }, all, chromiumCanvas), pixelLimit: 100_000_000, decodeAlone: true, alone: true, keepAt: null, judgeLater: false };
      const result = await convertImage(request, (image, width, height) => resizeLanczos3(toImageData(image), width, height), () => {});
      const metadata = await sharp(Buffer.from(result.bytes)).metadata();
      expect([metadata.format, metadata.width, metadata.height]).toEqual([outputFormat, WIDTH, HEIGHT]);
    }
  });

  it('a damaged file (cut short) fails with the load message, not a crash', async () => {
    const cut = new Uint8Array(heic.eight).slice(0, Math.floor(heic.eight.length / 2));
    await expect(SOURCE_CODECS.heic.decode(cut.buffer)).rejects.toThrow();
    const header = (await readImageHeader('heic', cut))!;
    const file = new Blob([cut], { type: 'image/heic' });
    const request = { file, settings: DEFAULT_SETTINGS, plan: planJob({ format: 'heic', ...header }, DEFAULT_SETTINGS, chromiumCanvas), pixelLimit: 100_000_000, decodeAlone: true, alone: true, keepAt: null, judgeLater: false };
    await expect(convertImage(request, (image, width, height) => resizeLanczos3(toImageData(image), width, height), () => {})).rejects.toThrow(CONVERSION_ERRORS.load);
  });
});
