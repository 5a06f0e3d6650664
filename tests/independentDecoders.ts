import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

/**
 * What the tests read outputs with, apart from the browser that made them: the leading bytes, sharp (libvips), and
 * for JPEG XL, which sharp's libvips is built without, libjxl's own djxl and ExifTool (Debian's libjxl-tools and
 * libimage-exiftool-perl). Shared by the e2e suite and the engines runner.
 */

/** Format named by the leading bytes, independent of any decoder. */
export function magicFormat(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (bytes.toString('latin1', 4, 8) === 'ftyp' && /avif|avis/.test(bytes.toString('latin1', 8, 32))) return 'avif';
  if ((bytes[0] === 0xff && bytes[1] === 0x0a) || bytes.subarray(0, 12).equals(Buffer.from([0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a]))) return 'jxl';
  return 'unknown';
}

/**
 * What sharp can read: the bytes themselves, or for a JPEG XL (which sharp's libvips is built without) the PNG
 * libjxl's own djxl decodes it to (Debian's libjxl-tools), a decoder independent of the browser's too.
 */
export function sharpReadable(bytes: Buffer): Buffer {
  if (magicFormat(bytes) !== 'jxl') return bytes;
  const dir = mkdtempSync(join(tmpdir(), 'djxl-'));
  try {
    writeFileSync(join(dir, 'in.jxl'), bytes);
    execFileSync('djxl', [join(dir, 'in.jxl'), join(dir, 'out.png'), '--quiet'], { stdio: 'pipe' });
    return readFileSync(join(dir, 'out.png'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The EXIF an output carries, as text to look for tags in, and its Orientation (1 when none): sharp's reading, or
 * ExifTool's for a JPEG XL (djxl's PNG leaves EXIF out).
 */
export async function exifOf(bytes: Buffer): Promise<{ text: string | undefined; orientation: number }> {
  if (magicFormat(bytes) !== 'jxl') {
    const metadata = await sharp(bytes).metadata();
    return { text: metadata.exif?.toString('latin1'), orientation: metadata.orientation ?? 1 };
  }
  const dir = mkdtempSync(join(tmpdir(), 'exiftool-'));
  try {
    writeFileSync(join(dir, 'image.jxl'), bytes);
    const [tags] = JSON.parse(execFileSync('exiftool', ['-j', '-n', '-EXIF:all', join(dir, 'image.jxl')], { stdio: 'pipe' }).toString()) as Record<string, unknown>[];
    const { SourceFile: _file, ...exif } = tags!;
    return { text: Object.keys(exif).length > 0 ? JSON.stringify(exif) : undefined, orientation: typeof exif.Orientation === 'number' ? exif.Orientation : 1 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
