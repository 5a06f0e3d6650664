import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readImageHeader } from '../../src/conversion/probe.ts';
import { TINY_AVIF_TURNED, TINY_HEIC_TURNED, TINY_WEBP } from '../../workers/pipeline/browser-orientation.ts';

/**
 * The pictures a worker decodes to learn whether its browser applies a format's orientation
 * (workers/pipeline/browser-orientation.ts) are what they say, by decoders that are not a browser's: 2 × 1 stored, and
 * the AVIF and the HEIC shown 1 × 2 by their irot, as the app's own header reader says too.
 */
describe('the orientation probes', () => {
  it('the WebP is 2 × 1, for an EXIF Orientation to be written into', async () => {
    const { width, height } = await sharp(Buffer.from(TINY_WEBP)).metadata();
    expect([width, height]).toEqual([2, 1]);
  });

  it('the AVIF is 2 × 1 stored, turned to 1 × 2 by its irot', async () => {
    const { width, height } = await sharp(Buffer.from(TINY_AVIF_TURNED)).metadata();
    expect([width, height]).toEqual([1, 2]);
    expect(await readImageHeader('avif', TINY_AVIF_TURNED)).toEqual({ size: { width: 2, height: 1 }, orientation: 8 });
  });

  it('the HEIC is 2 × 1 stored, shown 1 × 2 by libheif', async () => {
    expect(await readImageHeader('heic', TINY_HEIC_TURNED)).toEqual({ size: { width: 2, height: 1 }, orientation: 8 });
    const dir = mkdtempSync(join(tmpdir(), 'probe-'));
    try {
      writeFileSync(join(dir, 'probe.heic'), TINY_HEIC_TURNED);
      execFileSync('heif-convert', [join(dir, 'probe.heic'), join(dir, 'probe.png')], { stdio: 'ignore' });
      const { width, height } = await sharp(readFileSync(join(dir, 'probe.png'))).metadata();
      expect([width, height]).toEqual([1, 2]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
