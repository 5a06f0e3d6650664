import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharpReadable } from '../independentDecoders.ts';

/**
 * Encoders compared at an equal look: for a reference encode, each candidate's lowest setting whose output looks at
 * least as close to the source. SSIM alone does not judge an encoder (mozjpeg's files scored the same SSIM as the
 * browser's and looked worse), so the judge is a perceptual metric:
 * - `ssimulacra2` (the default): SSIMULACRA2, Cloudinary's, built by tests/bench/build-ssimulacra2.sh. A mean over the
 *   image at six scales; 100 is identical, 90 visually lossless, 70 high quality, 50 medium. Higher is closer.
 * - `butteraugli`: Debian's `butteraugli` (google/butteraugli), its max-norm distance: the image's single worst
 *   spot, so noisy from one setting to the next. Lower is closer.
 */

const run = promisify(execFile);

export type EncodeAt = (setting: number) => Promise<Uint8Array>;

export type LookMetric = 'ssimulacra2' | 'butteraugli';

export const SSIMULACRA2 = new URL('.tools/ssimulacra2', import.meta.url).pathname;

export interface Look {
  metric: LookMetric;
  /** The metric's own number: a score (SSIMULACRA2, higher is closer) or a distance (butteraugli, lower is closer). */
  value: number;
}

/** Whether `candidate` looks at least as close to the source as `reference`. */
export const looksAtLeastAsGood = (candidate: Look, reference: Look) =>
  candidate.metric === 'ssimulacra2' ? candidate.value >= reference.value : candidate.value <= reference.value;

export class LookJudge {
  private readonly scratch = mkdtempSync(join(tmpdir(), 'equal-look-'));
  private readonly sourcePath: string;

  /** `sourcePng`: the image every output is compared with, as a lossless RGB PNG (the metrics compare like channels). */
  constructor(
    sourcePng: Uint8Array,
    readonly metric: LookMetric = 'ssimulacra2',
  ) {
    if (metric === 'ssimulacra2' && !existsSync(SSIMULACRA2)) throw new Error(`${SSIMULACRA2} is missing: run bash tests/bench/build-ssimulacra2.sh`);
    this.sourcePath = join(this.scratch, 'source.png');
    writeFileSync(this.sourcePath, sourcePng);
  }

  private candidates = 0;

  /** How close an encoded image looks to the source. Judges of several sources may run at once (a process each). */
  async look(encoded: Uint8Array): Promise<Look> {
    // The metrics read PNG and JPEG; anything else (WebP, JPEG XL through djxl) is judged as the PNG it decodes to.
    const jpeg = encoded[0] === 0xff && encoded[1] === 0xd8;
    const path = join(this.scratch, `candidate-${this.candidates++}.${jpeg ? 'jpg' : 'png'}`);
    writeFileSync(path, jpeg || encoded[0] === 0x89 ? encoded : await sharp(sharpReadable(Buffer.from(encoded))).removeAlpha().png({ compressionLevel: 1 }).toBuffer());
    const command = this.metric === 'ssimulacra2' ? SSIMULACRA2 : 'butteraugli';
    const { stdout } = await run(command, [this.sourcePath, path], { encoding: 'utf8' });
    rmSync(path);
    return { metric: this.metric, value: Number(stdout.trim().split(/\s+/)[0]) };
  }

  /**
   * The lowest setting in [low, high] (a quality: higher looks better) whose output looks at least as good as
   * `target`, by bisection, and that output; null when even `high` does not. Looks improve as the setting rises,
   * give or take the metric's noise.
   */
  async lowestAtLook(encodeAt: EncodeAt, target: Look, low = 1, high = 100): Promise<{ setting: number; bytes: Uint8Array; look: Look } | null> {
    let best: { setting: number; bytes: Uint8Array; look: Look } | null = null;
    while (low <= high) {
      const setting = Math.floor((low + high) / 2);
      const bytes = await encodeAt(setting);
      const look = await this.look(bytes);
      if (looksAtLeastAsGood(look, target)) {
        best = { setting, bytes, look };
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
