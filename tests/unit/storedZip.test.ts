import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { chunksOf } from '../../core/blob-chunks.ts';
import { crc32 } from '../../core/bytes.ts';
import { storedZip, type StoredEntry } from '../../workers/stored-zip.ts';

/**
 * The zip worker's archive (workers/stored-zip.ts), read back by Info-ZIP's `unzip -t` and `zipinfo` (the readers
 * that refuse a malformed Zip64 archive) and by fflate.
 */
const dir = mkdtempSync(join(tmpdir(), 'stored-zip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function written(entries: StoredEntry[], options: { zip64From?: number; zip64Entries?: number } = {}): Promise<{ path: string; bytes: Buffer }> {
  const bytes = Buffer.from(await (await storedZip(entries, { chunks: chunksOf, date: new Date(2026, 10, 29, 12, 30, 14), ...options })).arrayBuffer());
  const path = join(dir, `archive-${Math.random().toString(36).slice(2)}.zip`);
  writeFileSync(path, bytes);
  return { path, bytes };
}

const unzipTest = (path: string) => execFileSync('unzip', ['-tq', path], { encoding: 'utf8' });
const zipinfo = (path: string, ...args: string[]) => execFileSync('zipinfo', [...args, path], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

const bytesOf = (length: number, seed: number) => Uint8Array.from({ length }, (_, i) => (i * 31 + seed * 7) & 0xff);
const photos: StoredEntry[] = [
  { name: 'holiday.jpg', file: new Blob([bytesOf(3_000_000, 1)]) },
  { name: 'Trip/Beach/sea été.webp', file: new Blob([bytesOf(1200, 2)]) },
  { name: 'empty.png', file: new Blob([]) },
];

describe('the zip of outputs', () => {
  it('CRC-32 as zlib reckons it, carried over chunks', () => {
    const data = bytesOf(100_000, 3);
    expect(crc32(data)).toBe(zlibCrc32(data));
    expect(crc32(data.subarray(40_000), crc32(data.subarray(0, 40_000)))).toBe(zlibCrc32(data));
    expect(crc32(new Uint8Array(0))).toBe(0);
  });

  it('stores each file as it is, under its UTF-8 name and folders; unzip -t and fflate read it back', async () => {
    const { path, bytes } = await written(photos);
    expect(unzipTest(path)).toContain('No errors detected');
    const read = unzipSync(new Uint8Array(bytes));
    expect(Object.keys(read)).toEqual(photos.map(({ name }) => name));
    for (const { name, file } of photos) expect(Buffer.from(read[name]!).equals(Buffer.from(await file.arrayBuffer()))).toBe(true);
    // Stored (no second compression), dated when the outputs were made, no Zip64 where none is needed.
    const listing = zipinfo(path, '-v');
    expect(listing).toContain('compression method:                             none (stored)');
    expect(listing).toContain('2026 Nov 29 12:30:14');
    expect(listing).not.toMatch(/PKWARE 64-bit sizes|zip64 end-of-central-directory/);
    expect(bytes.length).toBe(photos.reduce((sum, { name, file }) => sum + file.size + 30 + 46 + 2 * Buffer.byteLength(name), 22));
  });

  it("a file whose CRC-32 came with it is not read; one without is, and unzip -t finds every CRC right", async () => {
    const read: Blob[] = [];
    const reading = (blob: Blob) => {
      read.push(blob);
      return chunksOf(blob);
    };
    const entries = photos.map((entry, i) => (i === 1 ? entry : { ...entry, crc32: zlibCrc32(bytesOf(entry.file.size, i + 1)) }));
    const zip = await storedZip(entries, { chunks: reading });
    expect(read).toEqual([photos[1]!.file]);
    const path = join(dir, 'known-crc.zip');
    writeFileSync(path, Buffer.from(await zip.arrayBuffer()));
    expect(unzipTest(path)).toContain('No errors detected');
    // A CRC that is not the file's is what the archive says: the caller's word is taken, and a reader catches it.
    writeFileSync(path, Buffer.from(await (await storedZip([{ ...photos[1]!, crc32: 1 }], { chunks: reading })).arrayBuffer()));
    const tested = spawnSync('unzip', ['-tq', path], { encoding: 'utf8' });
    expect(tested.status).not.toBe(0);
    expect(tested.stdout).toMatch(/bad CRC/);
  });

  it('past 65,535 entries, the Zip64 end records: every entry listed and tested', async () => {
    const entries = Array.from({ length: 65_540 }, (_, i) => ({ name: `photos/IMG_${String(i).padStart(5, '0')}.jpg`, file: new Blob([bytesOf(1 + (i % 5), i)]) }));
    const { path } = await written(entries);
    expect(unzipTest(path)).toContain('No errors detected');
    const lines = zipinfo(path, '-1').trim().split('\n');
    expect(lines).toHaveLength(65_540);
    expect(lines.at(-1)).toBe('photos/IMG_65539.jpg');
    expect(zipinfo(path, '-h')).toMatch(/number of entries: 65540\b/);
  }, 120_000);

  it('offsets and sizes past 32 bits take their Zip64 fields (walked here from 1,000 bytes rather than 4 GB)', async () => {
    const { path, bytes } = await written(photos, { zip64From: 1000 });
    expect(unzipTest(path)).toContain('No errors detected');
    // The first's size and the others' offsets in their central headers' Zip64 fields, and the Zip64 end records.
    const listing = zipinfo(path, '-v');
    expect(listing.match(/PKWARE 64-bit sizes/g)).toHaveLength(photos.length);
    // The plain end record defers to the Zip64 one (0xFFFFFFFF), which is where zipinfo found the directory.
    expect(bytes.readUInt32LE(bytes.length - 6)).toBe(0xffffffff);
    expect(bytes.readUInt32LE(bytes.length - 22 - 20)).toBe(0x07064b50);
    expect(listing).toContain('central directory contains 3 entries');
    const read = unzipSync(new Uint8Array(bytes));
    for (const { name, file } of photos) expect(Buffer.from(read[name]!).equals(Buffer.from(await file.arrayBuffer()))).toBe(true);
  });
});
