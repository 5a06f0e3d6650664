import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { ssimulacra2Pairs } from '../unit/support/ssimulacra2Pairs.ts';
import { SSIMULACRA2 } from './equal-look.ts';

/**
 * The reference tool's scores of the unit tests' SSIMULACRA2 pairs (tests/unit/support/ssimulacra2Pairs.ts), for
 * tests/unit/ssimulacra2.test.ts: `npx tsx tests/bench/ssimulacra2-reference.ts`, after
 * `bash tests/bench/build-ssimulacra2.sh` (jpegli's tools/ssimulacra2 at the revision wasm/jpegli/sources.sh pins).
 */
const scratch = mkdtempSync(join(tmpdir(), 'ssimulacra2-reference-'));
const png = async (image: { data: Uint8ClampedArray; width: number; height: number }, name: string) => {
  const path = join(scratch, name);
  await sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length), { raw: { width: image.width, height: image.height, channels: 4 } })
    .removeAlpha()
    .png()
    .toFile(path);
  return path;
};
for (const pair of ssimulacra2Pairs()) {
  const score = execFileSync(SSIMULACRA2, [await png(pair.original, 'original.png'), await png(pair.distorted, 'distorted.png')], { encoding: 'utf8' }).trim();
  console.log(`  ['${pair.name}', ${Number(score).toFixed(4)}],`);
}
rmSync(scratch, { recursive: true });
