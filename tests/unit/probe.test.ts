import { describe, expect, it } from 'vitest';
import { detectFormat as detectImageFormat } from '../../workers/formats';
import { bytesNeededForSignature, sniffImageFormat } from '../../workers/pipeline/probe';
import { HEADS, blobOf, ftyp } from './signatures';

const bytes = (values: readonly number[]) => new Uint8Array(values);

describe('detectImageFormat reads the leading bytes', () => {
  it.each(Object.entries(HEADS))('recognises %s', (format, head) => {
    expect(detectImageFormat(bytes(head))).toBe(format);
  });

  it('recognises AVIF by a compatible brand when the major brand is another', () => {
    expect(detectImageFormat(bytes(ftyp('mif1', ['miaf', 'avif'])))).toBe('avif');
  });

  it('recognises an AVIF image sequence (avis)', () => {
    expect(detectImageFormat(bytes(ftyp('avis', ['msf1'])))).toBe('avif');
  });

  it('rejects an ISO-BMFF file without an AVIF brand (HEIC)', () => {
    expect(detectImageFormat(bytes(ftyp('heic', ['mif1', 'heic'])))).toBeNull();
  });

  it('rejects a RIFF file that is not WebP (WAV)', () => {
    const wav = [...'RIFF'].map((c) => c.charCodeAt(0)).concat([0, 0, 0, 0], [...'WAVE'].map((c) => c.charCodeAt(0)));
    expect(detectImageFormat(bytes(wav))).toBeNull();
  });

  it('rejects text, SVG, GIF and empty input', () => {
    const text = (s: string) => bytes([...s].map((c) => c.charCodeAt(0)));
    expect(detectImageFormat(text('hello, this is a text file'))).toBeNull();
    expect(detectImageFormat(text('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(detectImageFormat(text('GIF89a'))).toBeNull();
    expect(detectImageFormat(new Uint8Array())).toBeNull();
  });

  it('rejects a truncated PNG signature', () => {
    expect(detectImageFormat(bytes(HEADS.png.slice(0, 6)))).toBeNull();
  });
});

describe('sniffImageFormat reads only the bytes it needs', () => {
  it('asks for more bytes only when an ftyp box is longer than the first read, capped at 4 KB', () => {
    expect(bytesNeededForSignature(bytes(HEADS.jpeg))).toBe(HEADS.jpeg.length);
    const longBox = ftyp('mif1', Array.from({ length: 20 }, () => 'miaf').concat('avif'));
    expect(bytesNeededForSignature(bytes(longBox.slice(0, 32)))).toBe(longBox.length);
    const hostile = [0x7f, 0xff, 0xff, 0xff, ...'ftyp'.split('').map((c) => c.charCodeAt(0))];
    expect(bytesNeededForSignature(bytes(hostile))).toBe(4096);
  });

  it('finds an avif brand listed after the first 32 bytes', async () => {
    const longBox = ftyp('mif1', Array.from({ length: 20 }, () => 'miaf').concat('avif'));
    expect(await sniffImageFormat(blobOf(longBox, 500, 'image/avif'))).toBe('avif');
  });

  it('reads a 26 MB blob without loading it whole', async () => {
    const blob = blobOf(HEADS.png, 26 * 1024 * 1024, 'image/png');
    let sliced = 0;
    const spy = new Proxy(blob, {
      get(target, key) {
        if (key === 'slice') return (start: number, end: number) => ((sliced += end - start), target.slice(start, end));
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    expect(await sniffImageFormat(spy)).toBe('png');
    expect(sliced).toBeLessThanOrEqual(32);
  });
});
