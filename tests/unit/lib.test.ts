import { describe, expect, it } from 'vitest';
import { inTurns } from '../../src/lib/inTurns.ts';
import { formatBytes, formatMegabytes, percentLarger, percentSaved } from '../../src/lib/formatBytes.ts';
import { displayExtension, folderOfPath, outputFileName, pathInFolder, uniqueFileNames } from '../../src/lib/fileNames.ts';
import { countOf } from '../../src/lib/plural.ts';

describe('formatBytes: 1024-based Bytes, KB, MB, GB with 2 decimals', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [1024 * 1024, '1.00 MB'],
    [25 * 1024 * 1024 + 1, '25.00 MB'],
    [2.345 * 1024 * 1024, '2.35 MB'],
    [3 * 1024 ** 3, '3.00 GB'],
    [5 * 1024 ** 4, '5120.00 GB'],
  ])('%d → %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it('megabytes with 1 decimal for the summary', () => {
    expect(formatMegabytes(1.26 * 1024 * 1024)).toBe('1.3 MB');
    expect(formatMegabytes(0)).toBe('0.0 MB');
  });

  it('percent saved only when the output is smaller', () => {
    expect(percentSaved(1000, 250)).toBe(75);
    expect(percentSaved(1000, 1000)).toBeNull();
    expect(percentSaved(1000, 1200)).toBeNull();
  });

  it('percent larger only when the output is larger, never reading "+0%"', () => {
    expect(percentLarger(1000, 1100)).toBe(10);
    expect(percentLarger(1000, 1001)).toBe(1);
    expect(percentLarger(1000, 1000)).toBeNull();
    expect(percentLarger(1000, 900)).toBeNull();
  });
});

describe('file names', () => {
  it('extension upper-cased, or Unknown', () => {
    expect(displayExtension('photo.jpeg')).toBe('JPEG');
    expect(displayExtension('archive.tar.png')).toBe('PNG');
    expect(displayExtension('photo')).toBe('Unknown');
    expect(displayExtension('.hidden')).toBe('Unknown');
    expect(displayExtension('photo.')).toBe('Unknown');
  });

  it.each([
    ['photo.png', 'webp', 'photo.webp'],
    ['photo.png', 'jpeg', 'photo.jpg'],
    ['archive.tar.png', 'webp', 'archive.tar.webp'],
    ['photo', 'avif', 'photo.avif'],
    ['IMG_0001.JPG', 'png', 'IMG_0001.png'],
    ['.hidden', 'png', '.hidden.png'],
  ] as const)('%s to %s → %s', (name, format, expected) => {
    expect(outputFileName(name, format)).toBe(expected);
  });

  it('duplicate names in one archive become photo (2).webp, photo (3).webp', () => {
    expect(uniqueFileNames(['photo.webp', 'photo.webp', 'other.webp', 'photo.webp', 'Photo.webp'])).toEqual([
      'photo.webp',
      'photo (2).webp',
      'other.webp',
      'photo (3).webp',
      'Photo (4).webp',
    ]);
  });

  it('a file\'s folder, from the path a folder pick or drop gives, never climbing out of the root', () => {
    expect(folderOfPath('Holiday/Beach/photo.jpg')).toBe('Holiday/Beach');
    expect(folderOfPath('/Holiday/photo.jpg')).toBe('Holiday');
    expect(folderOfPath('photo.jpg')).toBe('');
    expect(folderOfPath('')).toBe('');
    expect(folderOfPath('../../etc/./x//photo.jpg')).toBe('etc/x');
    expect(folderOfPath('Holiday\\Beach\\photo.jpg')).toBe('Holiday/Beach');
  });

  it('outputs in folders: the same name in two folders stays as it is, twice in one folder is numbered, a dot in a folder is not an extension', () => {
    const names = [pathInFolder('Holiday/Beach', 'a.webp'), pathInFolder('Holiday/City', 'a.webp'), pathInFolder('Holiday/Beach', 'a.webp'), pathInFolder('', 'a.webp')];
    expect(uniqueFileNames(names)).toEqual(['Holiday/Beach/a.webp', 'Holiday/City/a.webp', 'Holiday/Beach/a (2).webp', 'a.webp']);
    expect(uniqueFileNames(['Trip.2024/notes', 'Trip.2024/notes'])).toEqual(['Trip.2024/notes', 'Trip.2024/notes (2)']);
  });

  it('pluralises counts', () => {
    expect(countOf(1, 'image')).toBe('1 image');
    expect(countOf(0, 'image')).toBe('0 images');
    expect(countOf(3, 'file')).toBe('3 files');
  });
});

describe('inTurns: work over many items, a few at a time', () => {
  it('never runs more than it may at once, runs every item once, and gives the results in the items\' order', async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    const results = await inTurns([...Array(50).keys()], 8, async (n) => {
      running++;
      most = Math.max(most, running);
      seen.push(n);
      await new Promise((resolve) => setTimeout(resolve, (n * 7) % 5));
      running--;
      return n * 2;
    });
    expect(most).toBe(8);
    expect(seen.sort((a, b) => a - b)).toEqual([...Array(50).keys()]);
    expect(results).toEqual([...Array(50).keys()].map((n) => n * 2));
    expect(await inTurns([], 8, async () => 1)).toEqual([]);
  });

  it('a failure rejects the whole, as Promise.all would', async () => {
    await expect(inTurns([1, 2, 3], 2, async (n) => (n === 2 ? Promise.reject(new Error('two')) : n))).rejects.toThrow('two');
  });
});

