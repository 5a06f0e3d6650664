import { describe, expect, it } from 'vitest';
import { detectFormat as detectImageFormat } from '../../core/formats.ts';
import { bytesNeededForSignature, sniffImageFormat } from '../../src/conversion/probe.ts';
import { HEADS, blobOf, ftyp, headerOf } from './signatures.ts';
import { probeImage } from '../../src/conversion/bridge.ts';

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

  it('tells HEIC from AVIF by their brands, and rejects an ISO-BMFF file that is no image (an MP4)', () => {
    expect(detectImageFormat(bytes(ftyp('heic', ['mif1', 'heic'])))).toBe('heic');
    expect(detectImageFormat(bytes(ftyp('isom', ['isom', 'iso2', 'mp41'])))).toBeNull();
  });

  it('rejects a RIFF file that is not WebP (WAV)', () => {
    const wav = [...'RIFF'].map((c) => c.charCodeAt(0)).concat([0, 0, 0, 0], [...'WAVE'].map((c) => c.charCodeAt(0)));
    expect(detectImageFormat(bytes(wav))).toBeNull();
  });

  it('rejects text, SVG, an icon and empty input', () => {
    const text = (s: string) => bytes([...s].map((c) => c.charCodeAt(0)));
    expect(detectImageFormat(text('hello, this is a text file'))).toBeNull();
    expect(detectImageFormat(text('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(detectImageFormat(bytes([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0]))).toBeNull();
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

describe("the bridge's probeImage reads a file's header once", () => {
  /** A Blob that counts how often its bytes are read, and fails the first `failures` reads. */
  class CountingBlob extends Blob {
    reads = 0;
    failures: number;
    constructor(parts: BlobPart[], options: BlobPropertyBag, failures = 0) {
      super(parts, options);
      this.failures = failures;
    }
    override slice(start?: number, end?: number, type?: string): Blob {
      this.reads += 1;
      if (this.failures > 0) {
        this.failures -= 1;
        return { arrayBuffer: () => Promise.reject(new DOMException('The file could not be read', 'NotReadableError')) } as Blob;
      }
      return super.slice(start, end, type);
    }
  }
  const png = () => new Uint8Array(headerOf('png', 640, 480));

  it('gives a later conversion of the same file the header intake read, without reading the file again', async () => {
    const file = new CountingBlob([png()], { type: 'image/png' });
    const first = await probeImage(file);
    const readsForFirst = file.reads;
    expect(first?.size).toEqual({ width: 640, height: 480 });
    expect(await probeImage(file)).toBe(first);
    expect(file.reads).toBe(readsForFirst);
    // Another file with the same bytes is another file.
    const other = new CountingBlob([png()], { type: 'image/png' });
    await probeImage(other);
    expect(other.reads).toBe(readsForFirst);
  });

  it('reads a file afresh after a read failed (a moved file, lost access), rather than keep the failure', async () => {
    const file = new CountingBlob([png()], { type: 'image/png' }, 1);
    await expect(probeImage(file)).rejects.toThrow('could not be read');
    expect((await probeImage(file))?.size).toEqual({ width: 640, height: 480 });
  });
});
