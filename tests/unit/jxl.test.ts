import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectFormat } from '../../core/formats';
import { readImageHeader } from '../../src/conversion/probe';
import { SOURCE_CODECS } from '../../wasm';
import { photoPixels } from '../fixtures/make-fixtures';
import { serveBuildAssets } from './support/serveBuildAssets';

/**
 * JPEG XL through libjxl's decoder in WebAssembly (wasm/jxl, jSquash's build), in Node as in a browser without a
 * JPEG XL decoder: files made here by libjxl's own cjxl (Debian's libjxl-tools), their headers read and decoded.
 */

const WIDTH = 72;
const HEIGHT = 40;
let work = '';
const files: Record<'lossy' | 'lossless' | 'recompressed', Buffer> = { lossy: Buffer.alloc(0), lossless: Buffer.alloc(0), recompressed: Buffer.alloc(0) };

beforeAll(async () => {
  serveBuildAssets();
  work = mkdtempSync(join(tmpdir(), 'jxl-'));
  const picture = sharp(photoPixels(WIDTH, HEIGHT, 8), { raw: { width: WIDTH, height: HEIGHT, channels: 3 } });
  await picture.clone().png().toFile(join(work, 'photo.png'));
  await picture.clone().jpeg({ quality: 90 }).toFile(join(work, 'photo.jpg'));
  const cjxl = (input: string, output: string, ...options: string[]) => execFileSync('cjxl', [join(work, input), join(work, output), ...options, '--quiet']);
  cjxl('photo.png', 'lossy.jxl', '-d', '1');
  cjxl('photo.png', 'lossless.jxl', '-d', '0');
  // A JPEG recompressed losslessly: a container (JXL signature box, ftyp, jbrd, then the codestream).
  cjxl('photo.jpg', 'recompressed.jxl');
  for (const name of ['lossy', 'lossless', 'recompressed'] as const) files[name] = readFileSync(join(work, `${name}.jxl`));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The mean difference per channel from the picture the files were made from (0–255). */
function differenceFromSource(rgba: Uint8ClampedArray): number {
  const source = photoPixels(WIDTH, HEIGHT, 8);
  let sum = 0;
  for (let i = 0; i < WIDTH * HEIGHT; i++) for (let c = 0; c < 3; c++) sum += Math.abs(source[i * 3 + c]! - rgba[i * 4 + c]!);
  return sum / (WIDTH * HEIGHT * 3);
}

describe('JPEG XL', () => {
  it('a bare codestream and a container are both recognised, and their headers give the size', async () => {
    expect(files.lossy[0]).toBe(0xff);
    expect(files.recompressed.subarray(4, 8).toString('latin1')).toBe('JXL ');
    for (const bytes of Object.values(files)) {
      expect(detectFormat(bytes)).toBe('jxl');
      expect(await readImageHeader('jxl', new Uint8Array(bytes))).toEqual({ size: { width: WIDTH, height: HEIGHT }, turned: false });
    }
  });

  it('libjxl decodes each to the picture it was made from (lossless exactly)', async () => {
    for (const [name, bytes] of Object.entries(files)) {
      const image = await SOURCE_CODECS.jxl.decode(new Uint8Array(bytes).slice().buffer);
      expect([image.width, image.height], name).toEqual([WIDTH, HEIGHT]);
      expect(differenceFromSource(image.data), name).toBeLessThan(name === 'lossless' ? 0.01 : 6);
    }
  });

  it('a file cut short has no size or fails to decode, and never hangs', async () => {
    const cut = new Uint8Array(files.lossy).slice(0, 8);
    const header = await readImageHeader('jxl', cut);
    if (header) expect(header.size).toEqual({ width: WIDTH, height: HEIGHT });
    const half = new Uint8Array(files.lossy).slice(0, Math.floor(files.lossy.length / 2));
    await expect(SOURCE_CODECS.jxl.decode(half.buffer)).rejects.toThrow();
  });
});
