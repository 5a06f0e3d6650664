import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Encoders compared at an equal look: for a reference encode, each candidate's smallest output whose butteraugli
 * distance from the source is no worse than the reference's. SSIM alone does not judge an encoder (mozjpeg's files
 * scored the same SSIM as the browser's and looked worse), so the metric is butteraugli: Debian's `butteraugli`
 * (google/butteraugli), its max-norm distance, lower is closer to the source.
 */

export type EncodeAt = (setting: number) => Promise<Uint8Array>;

export class LookJudge {
  private readonly scratch = mkdtempSync(join(tmpdir(), 'equal-look-'));
  private readonly sourcePath: string;

  /** `sourcePng`: the image every output is compared with, as a lossless RGB PNG (butteraugli compares like channels). */
  constructor(sourcePng: Uint8Array) {
    this.sourcePath = join(this.scratch, 'source.png');
    writeFileSync(this.sourcePath, sourcePng);
  }

  /** butteraugli's max-norm distance of a JPEG or PNG from the source. */
  distance(encoded: Uint8Array): number {
    const path = join(this.scratch, encoded[0] === 0x89 ? 'candidate.png' : 'candidate.jpg');
    writeFileSync(path, encoded);
    return Number(execFileSync('butteraugli', [this.sourcePath, path], { encoding: 'utf8' }).trim().split(/\s+/)[0]);
  }

  /**
   * The lowest setting in [low, high] (a quality: higher looks better) whose output's distance is at most `target`,
   * by bisection, and that output; null when even `high` is further. Distances rise as the setting falls, give or take
   * the max-norm's noise.
   */
  async lowestAtLook(encodeAt: EncodeAt, target: number, low = 1, high = 100): Promise<{ setting: number; bytes: Uint8Array; distance: number } | null> {
    let best: { setting: number; bytes: Uint8Array; distance: number } | null = null;
    while (low <= high) {
      const setting = Math.floor((low + high) / 2);
      const bytes = await encodeAt(setting);
      const distance = this.distance(bytes);
      if (distance <= target) {
        best = { setting, bytes, distance };
        high = setting - 1;
      } else {
        low = setting + 1;
      }
    }
    return best;
  }

  dispose(): void {
    rmSync(this.scratch, { recursive: true, force: true });
  }
}

export const geometricMean = (values: readonly number[]) => Math.exp(values.reduce((sum, value) => sum + Math.log(value), 0) / values.length);
