import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../core/formats.ts';
import { LOOK_THRESHOLDS, choosesQualityByLook, judgesOutput, lookDetail, lookVerdict, smartTarget } from '../../core/look.ts';
import { DEFAULT_SETTINGS } from '../../src/features/settings/settings.ts';
import { LOOK_GRID, LOOK_TILE, lookTiles } from '../../core/look.ts';
import { lookView } from '../../workers/pipeline/look.ts';
import { halveSize } from '../../workers/pipeline/pixels.ts';
import { createRawImage } from '../../core/raw-image.ts';
import { SMART_VIEW_LEVELS, SMART_WHOLE_ENCODES, levelReaching, scoreOnCurve, searchSmartQuality } from '../../workers/pipeline/smart-quality.ts';

/** A rising score curve over levels 1…levels: what an encoder's output scores at each quality, as the corpus showed. */
const curve = (start: number, rise: number, bend: number, levels: number) => (level: number) => start + rise * (level / levels) + bend * (level / levels) ** 3;

async function search(whole: (level: number) => number, view: (level: number) => number, target: number, levels: number) {
  const wholeLevels: number[] = [];
  const result = await searchSmartQuality({
    target,
    levels,
    viewScoreAt: async (level) => view(level),
    wholeAt: async (level) => {
      wholeLevels.push(level);
      return { score: whole(level), output: level };
    },
  });
  return { result, wholeLevels };
}

describe('Smart compression search', () => {
  it('never settles below the target when the top level reaches it, within its encode budget', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          start: fc.double({ min: 10, max: 60, noNaN: true }),
          rise: fc.double({ min: 5, max: 60, noNaN: true }),
          bend: fc.double({ min: 0, max: 30, noNaN: true }),
          // The preview is off by this much at the bottom and that much at the top (libwebp's tiles: up to 20 low).
          offLow: fc.double({ min: -25, max: 5, noNaN: true }),
          offHigh: fc.double({ min: -10, max: 5, noNaN: true }),
          target: fc.integer({ min: 30, max: 90 }),
          levels: fc.constantFrom(100, 1000),
        }),
        async ({ start, rise, bend, offLow, offHigh, target, levels }) => {
          const whole = curve(start, rise, bend, levels);
          const view = (level: number) => whole(level) + offLow + (offHigh - offLow) * (level / levels);
          const { result, wholeLevels } = await search(whole, view, target, levels);
          expect(result.output).toBe(result.level);
          expect(result.score).toBe(whole(result.level));
          if (whole(levels) >= target) expect(result.score).toBeGreaterThanOrEqual(target);
          else expect(result.level).toBe(levels);
          // The budget, a last try well above, and the top level.
          expect(wholeLevels.length).toBeLessThanOrEqual(SMART_WHOLE_ENCODES + 2);
          expect(result.wholeEncodes).toBe(wholeLevels.length);
          expect(result.viewEncodes).toBeLessThanOrEqual(2);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("is never worse than the slider's own quality: at most it where it reaches the target, and never a lossless top", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          start: fc.double({ min: 10, max: 60, noNaN: true }),
          rise: fc.double({ min: 5, max: 60, noNaN: true }),
          bend: fc.double({ min: -20, max: 30, noNaN: true }),
          // A preview off by up to 25 either way, and off differently at the bottom and the top.
          offLow: fc.double({ min: -25, max: 25, noNaN: true }),
          offHigh: fc.double({ min: -25, max: 25, noNaN: true }),
          // The metric's noise on a whole encode, by level.
          noise: fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: 7, maxLength: 7 }),
          target: fc.integer({ min: 30, max: 90 }),
          levels: fc.constantFrom(100, 1000),
          simplePercent: fc.integer({ min: 30, max: 100 }),
        }),
        async ({ start, rise, bend, offLow, offHigh, noise, target, levels, simplePercent }) => {
          const smooth = curve(start, rise, bend, levels);
          const whole = (level: number) => smooth(level) + noise[level % noise.length]!;
          const view = (level: number) => smooth(level) + offLow + (offHigh - offLow) * (level / levels);
          const topLevel = levels - 1; // the highest lossy level where the top one is lossless
          const simpleLevel = Math.round((simplePercent / 100) * levels);
          const wholeLevels: number[] = [];
          const result = await searchSmartQuality({
            target,
            levels,
            topLevel,
            simpleLevel,
            viewScoreAt: async (level) => view(level),
            wholeAt: async (level) => (wholeLevels.push(level), { score: whole(level), output: level }),
          });
          expect(Math.max(...wholeLevels)).toBeLessThanOrEqual(topLevel);
          if (whole(Math.min(simpleLevel, topLevel)) >= target) expect(result.level).toBeLessThanOrEqual(simpleLevel);
          // Nothing above the slider's level is encoded before the slider's level itself.
          const firstAbove = wholeLevels.findIndex((level) => level > simpleLevel);
          if (firstAbove !== -1) expect(wholeLevels.slice(0, firstAbove)).toContain(Math.min(simpleLevel, topLevel));
          if (result.score < target) expect(result.level).toBe(topLevel);
          // The budget, a last try well above, the slider's level when that try was below it, and the top.
          expect(wholeLevels.length).toBeLessThanOrEqual(SMART_WHOLE_ENCODES + 3);
          expect(result.wholeEncodes).toBe(wholeLevels.length);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("stops at the slider's quality on a grainy photo whose half-size preview promised far more than the whole image gave", async () => {
    // The 6028 × 3391 wallpaper to WebP: quality 80 scored 69.0 against the target 65, and the search went on
    // to the lossless top. Here the preview scores 15 over the whole image below quality 80 and the whole image is
    // flat below it, so every encode the preview and the lines point to falls short.
    const whole = (level: number) => (level >= 800 ? 69 + (level - 800) / 100 : 60 + (level / 800) * 4);
    const view = (level: number) => whole(level) + 15;
    const wholeLevels: number[] = [];
    const result = await searchSmartQuality({ target: 65, levels: 1000, topLevel: 999, simpleLevel: 800, viewScoreAt: async (level) => view(level), wholeAt: async (level) => (wholeLevels.push(level), { score: whole(level), output: level }) });
    expect(result.level).toBe(800);
    expect(result.score).toBeGreaterThanOrEqual(65);
    expect(Math.max(...wholeLevels)).toBe(800);
  });

  it('finds a level close to the lowest that reaches the target when the preview is right', async () => {
    const whole = curve(40, 50, 0, 100); // 40 + level / 2: 70 is first reached at level 60
    const { result } = await search(whole, whole, 70, 100);
    expect(result.level).toBeGreaterThanOrEqual(60);
    expect(result.level).toBeLessThanOrEqual(65);
    expect(result.wholeEncodes).toBe(1);
  });

  it('corrects a preview that scores 15 points low with the whole encodes, not settling where the preview says', async () => {
    const whole = curve(40, 50, 0, 100);
    const { result } = await search(whole, (level) => whole(level) - 15, 70, 100);
    expect(result.score).toBeGreaterThanOrEqual(70);
    // The preview alone would ask for level 90.
    expect(result.level).toBeLessThanOrEqual(70);
  });

  it('encodes the predictor twice: the middle level, then below it when that reaches the target, above it when not', async () => {
    const viewLevelsFor = async (target: number) => {
      const levels: number[] = [];
      const whole = curve(40, 50, 0, 100);
      await searchSmartQuality({ target, levels: 100, viewScoreAt: async (level) => (levels.push(level), whole(level)), wholeAt: async (level) => ({ score: whole(level), output: level }) });
      return levels;
    };
    expect(await viewLevelsFor(60)).toEqual([SMART_VIEW_LEVELS.first, SMART_VIEW_LEVELS.below]);
    expect(await viewLevelsFor(80)).toEqual([SMART_VIEW_LEVELS.first, SMART_VIEW_LEVELS.above]);
  });

  it("whole-encodes first no lower than the preview's lowest level, where the preview already passes there", async () => {
    // The corpus's Aqua: its half-size copy scored 69.9 at 30%, the whole image 66 at 30% and 55 at 10%.
    const whole = curve(50, 55, 0, 1000);
    const { wholeLevels } = await search(whole, (level) => whole(level) + 3, 65, 1000);
    expect(wholeLevels[0]).toBeGreaterThanOrEqual(Math.round((SMART_VIEW_LEVELS.below / 100) * 1000));
  });

  it('takes the top level, once, when nothing reaches the target', async () => {
    const { result, wholeLevels } = await search(() => 50, () => 50, 70, 100);
    expect(result.level).toBe(100);
    expect(wholeLevels.filter((level) => level === 100)).toHaveLength(1);
  });

  it('reads the preview curve straight between its points and on along its first and last segments (flat where they fall)', () => {
    const points = [{ level: 30, score: 50 }, { level: 60, score: 65 }, { level: 90, score: 80 }];
    expect(scoreOnCurve(points, 45)).toBe(57.5);
    expect(scoreOnCurve(points, 10)).toBe(40);
    expect(scoreOnCurve(points, 100)).toBe(85);
    expect(scoreOnCurve([{ level: 30, score: 50 }, { level: 60, score: 49 }], 10)).toBe(50);
    expect(scoreOnCurve([{ level: 30, score: 50 }, { level: 60, score: 49 }], 90)).toBe(49);
    expect(levelReaching(points, 70, 0, 10, 101)).toBe(70);
    expect(levelReaching(points, 70, 5, 10, 101)).toBe(60);
    expect(levelReaching(points, 95, 0, 10, 101)).toBe(101);
  });
});

describe('the view a look is judged on', () => {
  it('is a grid of full-resolution tiles inside the image, on the 16-pixel grid where there is room', () => {
    fc.assert(
      fc.property(fc.integer({ min: 8, max: 9000 }), fc.integer({ min: 8, max: 9000 }), (width, height) => {
        const tiles = lookTiles({ width, height });
        const side = LOOK_GRID * LOOK_TILE;
        if (width <= side && height <= side) {
          expect(tiles).toEqual([{ x: 0, y: 0, width, height }]);
          return;
        }
        expect(tiles.length).toBeGreaterThanOrEqual(1);
        expect(tiles.length).toBeLessThanOrEqual(LOOK_GRID * LOOK_GRID);
        for (const tile of tiles) {
          expect(tile.x).toBeGreaterThanOrEqual(0);
          expect(tile.y).toBeGreaterThanOrEqual(0);
          expect(tile.x + tile.width).toBeLessThanOrEqual(width);
          expect(tile.y + tile.height).toBeLessThanOrEqual(height);
          if (tile.x + tile.width < width) expect(tile.x % 16).toBe(0);
          if (tile.y + tile.height < height) expect(tile.y % 16).toBe(0);
        }
      }),
    );
  });

  it('spreads nine tiles over a photo, corners included, and lays them side by side', () => {
    const image = createRawImage(4000, 3000);
    for (let i = 0; i < image.data.length; i += 4) image.data[i] = (i / 4) % 4000 === 0 ? 200 : 0;
    const tiles = lookTiles(image);
    expect(tiles).toHaveLength(9);
    expect(tiles[0]).toMatchObject({ x: 0, y: 0 });
    expect(tiles[8]!.x + tiles[8]!.width).toBeGreaterThan(4000 - 16);
    const view = lookView(image, tiles);
    expect([view.width, view.height]).toEqual([LOOK_GRID * LOOK_TILE, LOOK_GRID * LOOK_TILE]);
    // The image's first column (red) is the view's first column: the top-left tile starts at the image's corner.
    expect(view.data[0]).toBe(200);
    expect(view.data[4]).toBe(0);
  });

  it('halves an image by averaging each 2 × 2, repeating the last row and column of an odd size', () => {
    const image = createRawImage(3, 3);
    image.data.set([0, 0, 0, 255, 100, 0, 0, 255, 9, 0, 0, 255, 200, 0, 0, 255, 100, 0, 0, 255, 9, 0, 0, 255, 4, 0, 0, 255, 8, 0, 0, 255, 1, 0, 0, 255]);
    const half = halveSize(image);
    expect([half.width, half.height]).toEqual([2, 2]);
    expect([half.data[0], half.data[4], half.data[8], half.data[12]]).toEqual([100, 9, 6, 1]);
    expect(half.data[3]).toBe(255);
  });
});

describe('what a score says', () => {
  it('says the same, small or visible differences at the documented thresholds', () => {
    expect(lookVerdict(LOOK_THRESHOLDS.same)).toBe('same');
    expect(lookVerdict(LOOK_THRESHOLDS.same - 0.01)).toBe('small');
    expect(lookVerdict(LOOK_THRESHOLDS.small)).toBe('small');
    expect(lookVerdict(LOOK_THRESHOLDS.small - 0.01)).toBe('visible');
    expect(lookDetail({ score: 71.234, smartQuality: null })).toBe('SSIMULACRA2 71.2 of 100');
    expect(lookDetail({ score: 68.06, smartQuality: 47 })).toBe('SSIMULACRA2 68.1 of 100 · Smart quality 47');
  });

  it('holds Smart compression to its level less 20, a target that looks the same at the default', () => {
    expect(smartTarget(85)).toBe(65);
    expect(smartTarget(95)).toBe(75);
    expect(smartTarget(50)).toBe(30);
    expect(lookVerdict(smartTarget(DEFAULT_SETTINGS.compressionLevel))).toBe('same');
  });

  it('judges a lossy output without a target size: not PNG, not JPEG XL at 100% unless Smart chooses its quality', () => {
    expect(judgesOutput(DEFAULT_SETTINGS, FORMATS.webp)).toBe(true);
    expect(judgesOutput(DEFAULT_SETTINGS, FORMATS.png)).toBe(false);
    expect(judgesOutput({ ...DEFAULT_SETTINGS, enableTargetSize: true, targetFileSize: 200 }, FORMATS.webp)).toBe(false);
    expect(judgesOutput({ ...DEFAULT_SETTINGS, quality: 100 }, FORMATS.jxl)).toBe(false);
    expect(judgesOutput({ ...DEFAULT_SETTINGS, quality: 95 }, FORMATS.jxl)).toBe(true);
    expect(judgesOutput({ ...DEFAULT_SETTINGS, quality: 100, autoCompress: true }, FORMATS.jxl)).toBe(true);
  });

  it('chooses the quality by look only with Smart on, a lossy format and no target size', () => {
    const on = { ...DEFAULT_SETTINGS, autoCompress: true };
    expect(choosesQualityByLook(on, { quality: { levels: 100, lookPredictor: 'tiles' } })).toBe(true);
    expect(choosesQualityByLook(on, { quality: null })).toBe(false);
    expect(choosesQualityByLook(DEFAULT_SETTINGS, { quality: { levels: 100, lookPredictor: 'tiles' } })).toBe(false);
    expect(choosesQualityByLook({ ...on, enableTargetSize: true, targetFileSize: 200 }, { quality: { levels: 100, lookPredictor: 'tiles' } })).toBe(false);
  });
});
