/**
 * SSIMULACRA2 (Jon Sneyers, Cloudinary, 2022–2023): how close a distorted image looks to its original, from 100
 * (identical) down: 90 visually lossless, 80 very high quality, 70 high, 50 medium, below 30 low. The reference is
 * jpegli's tools/ssimulacra2.cc (libjxl's, split out); docs/decisions/perceptual-score.md says why this metric.
 * - ssimulacra2.c (built to ssimulacra2.wasm by build.sh, WebAssembly SIMD) computes the error maps' norms: both
 *   images in linear sRGB, then XYB rescaled to about 0..1; at six scales (each a 2×2 box average of the last, in
 *   linear RGB); per channel an SSIM map without its luminance denominator and two edge maps (ringing or blocking:
 *   the distorted image has edges the original has not; blurring: the reverse), each blurred with the reference's
 *   recursive Gaussian of sigma 1.5; the mean and 4-norm of each of the 54 maps.
 * - Here: the Gaussian's weights and the sRGB table it is handed, and the reference's 108 weights and final curve.
 *
 * tests/unit/ssimulacra2.test.ts holds the scores within a small tolerance of the reference tool's on the same
 * pixels. Transparent images are judged over a dark and a light background and the lower score counts (as libjxl's
 * tool does): a difference in alpha shows on one of them.
 */
import type { RawImage } from '../../core/raw-image.ts';

interface MetricExports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  ssimulacra2_set_gaussian(radius: number, n1: number, n3: number, n5: number, d1: number, d3: number, d5: number): void;
  ssimulacra2_alloc(bytes: number): number;
  ssimulacra2_free(pointer: number): void;
  ssimulacra2_norms(original: number, distorted: number, width: number, height: number, toLinear: number, background: number, norms: number): number;
}

/** Scores one pair of same-size images (at least 8 × 8). */
export type Ssimulacra2 = (original: RawImage, distorted: RawImage) => number;

/** The backgrounds a transparent image is judged over, as linear light. */
const TRANSPARENCY_BACKGROUNDS = [0.1, 0.9];
const SCALES = 6;
const NORMS_PER_SCALE = 18;

const SRGB_TO_LINEAR = Float32Array.from({ length: 256 }, (_, value) => {
  const v = value / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
});

function hasTransparency({ data }: RawImage): boolean {
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return true;
  return false;
}

/**
 * The metric over one compiled ssimulacra2.wasm, in an instance of its own. `warmFor`: the side of the largest pair
 * expected (the app's view), to prepare for before the first score; 0 to skip (a test's one-off scores).
 */
export async function ssimulacra2Metric(module: WebAssembly.Module, warmFor = 0): Promise<Ssimulacra2> {
  const exports = (await WebAssembly.instantiate(module, {})).exports as unknown as MetricExports;
  exports._initialize();
  exports.ssimulacra2_set_gaussian(GAUSSIAN.radius, ...GAUSSIAN.n2, ...GAUSSIAN.d1);
  const toLinear = exports.ssimulacra2_alloc(SRGB_TO_LINEAR.byteLength);
  new Float32Array(exports.memory.buffer, toLinear, SRGB_TO_LINEAR.length).set(SRGB_TO_LINEAR);
  const normsPointer = exports.ssimulacra2_alloc(SCALES * NORMS_PER_SCALE * 8);

  const scoreOver = (original: number, distorted: number, width: number, height: number, background: number): number => {
    const scales = exports.ssimulacra2_norms(original, distorted, width, height, toLinear, background, normsPointer);
    if (scales < 0) throw new RangeError(`SSIMULACRA2 ran out of memory for ${width} × ${height} pixels`);
    const norms = new Float64Array(exports.memory.buffer, normsPointer, SCALES * NORMS_PER_SCALE);
    return scoreFromNorms(Array.from({ length: scales }, (_, scale) => [0, 1, 2].map((c) => Array.from(norms.subarray(scale * NORMS_PER_SCALE + c * 6, scale * NORMS_PER_SCALE + c * 6 + 6)))));
  };

  const score: Ssimulacra2 = (original, distorted) => {
    const { width, height } = original;
    if (width !== distorted.width || height !== distorted.height) throw new Error('SSIMULACRA2 compares images of the same size');
    if (width < 8 || height < 8) throw new Error('SSIMULACRA2 needs at least 8 × 8 pixels');
    const bytes = width * height * 4;
    const first = exports.ssimulacra2_alloc(bytes);
    const second = exports.ssimulacra2_alloc(bytes);
    try {
      if (first === 0 || second === 0) throw new RangeError(`SSIMULACRA2 ran out of memory for ${width} × ${height} pixels`);
      new Uint8Array(exports.memory.buffer, first, bytes).set(original.data);
      new Uint8Array(exports.memory.buffer, second, bytes).set(distorted.data);
      if (!hasTransparency(original) && !hasTransparency(distorted)) return scoreOver(first, second, width, height, -1);
      return Math.min(...TRANSPARENCY_BACKGROUNDS.map((background) => scoreOver(first, second, width, height, background)));
    } finally {
      exports.ssimulacra2_free(first);
      exports.ssimulacra2_free(second);
    }
  };
  if (warmFor) {
    // The working memory of a warmFor × warmFor pair, allocated and written once, then freed for the scores to reuse:
    // first touching fresh WebAssembly pages cost the first score of a 768 × 768 view 0.2 s in Node (0.4–0.8 s in
    // Chromium beside two encodes), the next ones none.
    const bytes = (warmFor * warmFor * (19 * 4 + 2 * 4) + 7 * 4 * warmFor) * 1.05;
    const block = exports.ssimulacra2_alloc(bytes);
    if (block !== 0) {
      new Uint8Array(exports.memory.buffer, block, bytes).fill(0);
      exports.ssimulacra2_free(block);
    }
    await warmUp(score);
  }
  return score;
}

/**
 * A few small scores before the first real one, run where the worker warms up before a batch (workers/convert.worker.ts
 * warmUp). V8 first runs WebAssembly from its baseline compiler and moves a function to its optimising one once it
 * has run a while, compiled on a background thread; a call already running stays where it started. Small images run
 * the same loops long enough to ask for the optimised code; the pause lets it compile while the cores are idle.
 */
async function warmUp(score: Ssimulacra2): Promise<void> {
  const side = 192;
  const image = { data: new Uint8ClampedArray(side * side * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * 37) % 256)), width: side, height: side };
  const other = { ...image, data: image.data.map((value, i) => (i % 4 === 3 ? 255 : value ^ 8)) };
  for (let i = 0; i < 3; i++) score(image, other);
  await new Promise((resolve) => setTimeout(resolve, 50));
  score(image, other);
}

/**
 * The recursive Gaussian of tools/gauss_blur.cc (Charalampidis 2016, three second-order filters), sigma 1.5: its
 * radius, and the filters' input and feedback weights, rounded to floats as the reference stores them.
 */
const GAUSSIAN = (() => {
  const sigma = 1.5;
  const radius = Math.round(3.2795 * sigma + 0.2546);
  const piDiv2r = Math.PI / (2 * radius);
  const omega = [piDiv2r, 3 * piDiv2r, 5 * piDiv2r];
  const p1 = 1 / Math.tan(0.5 * omega[0]!), p3 = -1 / Math.tan(0.5 * omega[1]!), p5 = 1 / Math.tan(0.5 * omega[2]!);
  const r1 = (p1 * p1) / Math.sin(omega[0]!), r3 = (-p3 * p3) / Math.sin(omega[1]!), r5 = (p5 * p5) / Math.sin(omega[2]!);
  const rho = omega.map((w) => Math.exp(-0.5 * sigma * sigma * w * w) / radius);
  const d13 = p1 * r3 - r1 * p3, d35 = p3 * r5 - r3 * p5, d51 = p5 * r1 - r5 * p1;
  const zeta15 = d35 / d13, zeta35 = d51 / d13;
  const beta = solve3([[p1, p3, p5], [r1, r3, r5], [zeta15, zeta35, 1]], [1, radius * radius - sigma * sigma, zeta15 * rho[0]! + zeta35 * rho[1]! + rho[2]!]);
  const n2 = omega.map((w, i) => Math.fround(-beta[i]! * Math.cos(w * (radius + 1))));
  const d1 = omega.map((w) => Math.fround(-2 * Math.cos(w)));
  return { radius, n2: n2 as [number, number, number], d1: d1 as [number, number, number] };
})();

/** x with m·x = v, by Cramer's rule (the reference inverts the 3×3 matrix). */
function solve3(m: number[][], v: number[]): number[] {
  const det = (a: number[][]) =>
    a[0]![0]! * (a[1]![1]! * a[2]![2]! - a[1]![2]! * a[2]![1]!) - a[0]![1]! * (a[1]![0]! * a[2]![2]! - a[1]![2]! * a[2]![0]!) + a[0]![2]! * (a[1]![0]! * a[2]![1]! - a[1]![1]! * a[2]![0]!);
  const whole = det(m);
  return [0, 1, 2].map((column) => det(m.map((row, i) => row.map((value, j) => (j === column ? v[i]! : value)))) / whole);
}

/** Per scale, per channel: SSIM' mean and 4-norm, ringing mean and 4-norm, blurring mean and 4-norm. */
type ScaleNorms = number[][];

/** The reference's weighted sum of the 108 norms (channel, scale, norm; then SSIM', ringing, blurring), and its curve. */
function scoreFromNorms(scales: ScaleNorms[]): number {
  let sum = 0;
  let i = 0;
  for (let c = 0; c < 3; c++) {
    // Only the scales the image was large enough for, the weights read on from where the last left off: the
    // reference does so (under 256 pixels a side, its weights shift).
    for (const norms of scales) {
      for (let norm = 0; norm < 2; norm++) {
        for (let map = 0; map < 3; map++) sum += WEIGHTS[i++]! * Math.abs(norms[c]![map * 2 + norm]!);
      }
    }
  }
  sum *= 0.9562382616834844;
  sum = 2.326765642916932 * sum - 0.020884521182843837 * sum * sum + 6.248496625763138e-5 * sum * sum * sum;
  return sum > 0 ? 100 - 10 * sum ** 0.6276336467831387 : 100;
}

// prettier-ignore
const WEIGHTS = [
  0.0, 0.0007376606707406586, 0.0, 0.0, 0.0007793481682867309, 0.0, 0.0, 0.0004371155730107379, 0.0,
  1.1041726426657346, 0.00066284834129271, 0.00015231632783718752, 0.0, 0.0016406437456599754, 0.0,
  1.8422455520539298, 11.441172603757666, 0.0, 0.0007989109436015163, 0.000176816438078653, 0.0,
  1.8787594979546387, 10.94906990605142, 0.0, 0.0007289346991508072, 0.9677937080626833, 0.0,
  0.00014003424285435884, 0.9981766977854967, 0.00031949755934435053, 0.0004550992113792063, 0.0, 0.0,
  0.0013648766163243398, 0.0, 0.0, 0.0, 0.0, 0.0, 7.466890328078848, 0.0, 17.445833984131262,
  0.0006235601634041466, 0.0, 0.0, 6.683678146179332, 0.00037724407979611296, 1.027889937768264,
  225.20515300849274, 0.0, 0.0, 19.213238186143016, 0.0011401524586618361, 0.001237755635509985,
  176.39317598450694, 0.0, 0.0, 24.43300999870476, 0.28520802612117757, 0.0004485436923833408, 0.0, 0.0, 0.0,
  34.77906344483772, 44.835625328877896, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0008680556573291698, 0.0,
  0.0, 0.0, 0.0, 0.0, 0.0005313191874358747, 0.0, 0.00016533814161379112, 0.0, 0.0, 0.0, 0.0, 0.0,
  0.0004179171803251336, 0.0017290828234722833, 0.0, 0.0020827005846636437, 0.0, 0.0, 8.826982764996862,
  23.19243343998926, 0.0, 95.1080498811086, 0.9863978034400682, 0.9834382792465353, 0.0012286405048278493,
  171.2667255897307, 0.9807858872435379, 0.0, 0.0, 0.0, 0.0005130064588990679, 0.0, 0.00010854057858411537,
];
