import { photoPixels, random } from '../../fixtures/make-fixtures.ts';
import type { RawImage } from '../../../core/raw-image.ts';

/**
 * Image pairs for the SSIMULACRA2 tests, made by plain arithmetic (no codec whose output could change with a package
 * upgrade): a photo-like original and a distortion of it. tests/bench/ssimulacra2-reference.ts writes the same pairs
 * as PNGs and scores them with the reference tool; tests/unit/ssimulacra2.test.ts holds the app's metric to those
 * scores.
 */
export interface Ssimulacra2Pair {
  name: string;
  original: RawImage;
  distorted: RawImage;
}

function original(width: number, height: number, seed: number): RawImage {
  const rgb = photoPixels(width, height, seed);
  const data = new Uint8ClampedArray(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    data.set(rgb.subarray(p * 3, p * 3 + 3), p * 4);
    data[p * 4 + 3] = 255;
  }
  return { data, width, height };
}

const mapped = (image: RawImage, pixel: (data: Uint8ClampedArray, x: number, y: number, i: number) => [number, number, number]): RawImage => {
  const data = new Uint8ClampedArray(image.data);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 4;
      const [r, g, b] = pixel(image.data, x, y, i);
      data[i] = r;
      data[i + 1] = g;
      data[i + 2] = b;
    }
  }
  return { ...image, data };
};

const noise = (image: RawImage, amplitude: number, seed: number) => {
  const rand = random(seed);
  return mapped(image, (d, _x, _y, i) => [0, 1, 2].map((c) => Math.round(d[i + c]! + (rand() - 0.5) * 2 * amplitude)) as [number, number, number]);
};

const boxBlur = (image: RawImage, radius: number) =>
  mapped(image, (d, x, y) => {
    const sum = [0, 0, 0];
    let count = 0;
    for (let dy = -radius; dy <= radius; dy++) {
      for (let dx = -radius; dx <= radius; dx++) {
        const sx = Math.min(image.width - 1, Math.max(0, x + dx)), sy = Math.min(image.height - 1, Math.max(0, y + dy));
        const j = (sy * image.width + sx) * 4;
        for (let c = 0; c < 3; c++) sum[c]! += d[j + c]!;
        count++;
      }
    }
    return sum.map((value) => Math.round(value / count)) as [number, number, number];
  });

const posterize = (image: RawImage, levels: number) => {
  const step = 255 / (levels - 1);
  return mapped(image, (d, _x, _y, i) => [0, 1, 2].map((c) => Math.round(Math.round(d[i + c]! / step) * step)) as [number, number, number]);
};

/** Each 8 × 8 block pulled halfway to its mean: the blocking a coarse JPEG shows. */
const blocky = (image: RawImage) => {
  const means = new Map<string, number[]>();
  const meanOf = (bx: number, by: number) => {
    const key = `${bx},${by}`;
    const known = means.get(key);
    if (known) return known;
    const sum = [0, 0, 0];
    let count = 0;
    for (let y = by * 8; y < Math.min(image.height, by * 8 + 8); y++) {
      for (let x = bx * 8; x < Math.min(image.width, bx * 8 + 8); x++) {
        for (let c = 0; c < 3; c++) sum[c]! += image.data[(y * image.width + x) * 4 + c]!;
        count++;
      }
    }
    const mean = sum.map((value) => value / count);
    means.set(key, mean);
    return mean;
  };
  return mapped(image, (d, x, y, i) => {
    const mean = meanOf(Math.floor(x / 8), Math.floor(y / 8));
    return [0, 1, 2].map((c) => Math.round((d[i + c]! + mean[c]!) / 2)) as [number, number, number];
  });
};

export function ssimulacra2Pairs(): Ssimulacra2Pair[] {
  const photo = original(256, 192, 3);
  const small = original(100, 80, 5);
  const large = original(640, 480, 7);
  return [
    { name: 'identical', original: photo, distorted: photo },
    { name: 'noise ±3', original: photo, distorted: noise(photo, 3, 11) },
    { name: 'noise ±12', original: photo, distorted: noise(photo, 12, 12) },
    { name: 'box blur 1', original: photo, distorted: boxBlur(photo, 1) },
    { name: 'posterized to 12 levels', original: photo, distorted: posterize(photo, 12) },
    { name: '8 × 8 blocks', original: photo, distorted: blocky(photo) },
    { name: '100 × 80, noise ±6 (fewer scales)', original: small, distorted: noise(small, 6, 13) },
    { name: '640 × 480, blocks', original: large, distorted: blocky(large) },
    { name: '640 × 480, noise ±2', original: large, distorted: noise(large, 2, 14) },
  ];
}
