import { describe, expect, it } from 'vitest';
import { SOURCE_FORMATS } from '../../core/formats.ts';
import { growthText, whyLarger, type GrowthFacts } from '../../core/growth.ts';

const photo = (facts: Partial<GrowthFacts>): GrowthFacts => ({ source: 'jpeg', sourcePixels: 12e6, output: 'jpeg', outputPixels: 12e6, lossless: false, quality: 80, smart: false, targetSize: false, ...facts });
const say = (facts: Partial<GrowthFacts>) => growthText(whyLarger(photo(facts)), (format) => SOURCE_FORMATS[format].label);

describe('why an output is larger than its source', () => {
  it('a resize past the source: more pixels, whatever else holds', () => {
    expect(whyLarger(photo({ outputPixels: 13e6, lossless: true, source: 'heic' }))).toEqual({ kind: 'more-pixels' });
    expect(say({ outputPixels: 13e6 })).toBe('it has more pixels than the source');
  });

  it('a lossless output: PNG, JPEG XL at 100 %, a browser WebP at 100 %', () => {
    expect(say({ output: 'png', quality: null, lossless: true })).toBe('this PNG is lossless: it keeps every pixel');
    expect(say({ output: 'webp', quality: 100, lossless: true })).toBe('this WebP is lossless: it keeps every pixel');
    // Fewer pixels than the source, still lossless: the file's mode is the reason, not its size.
    expect(whyLarger(photo({ output: 'jxl', outputPixels: 3e6, lossless: true }))).toEqual({ kind: 'lossless', output: 'jxl' });
  });

  it('a denser source format: HEIC, AVIF or JPEG XL to JPG or WebP, WebP to JPG', () => {
    expect(say({ source: 'heic', output: 'jpeg' })).toBe('HEIC stores photos in fewer bytes than JPG');
    expect(say({ source: 'avif', output: 'webp' })).toBe('AVIF stores photos in fewer bytes than WebP');
    expect(say({ source: 'webp', output: 'jpeg' })).toBe('WebP stores photos in fewer bytes than JPG');
    // The other way is no reason: a JPG to AVIF that grew did so by its quality.
    expect(whyLarger(photo({ source: 'jpeg', output: 'avif', quality: 95 }))).toEqual({ kind: 'higher-quality', quality: 95, smart: false });
    expect(whyLarger(photo({ source: 'avif', output: 'jxl' })).kind).toBe('higher-quality');
    // A quality chosen high is the first thing to change, whatever the formats.
    expect(whyLarger(photo({ source: 'heic', output: 'jpeg', quality: 95 }))).toEqual({ kind: 'higher-quality', quality: 95, smart: false });
    expect(whyLarger(photo({ source: 'gif', output: 'jpeg', quality: 90 })).kind).toBe('higher-quality');
  });

  it('a flat lossless source (PNG, GIF) to a lossy format', () => {
    expect(say({ source: 'gif', output: 'jpeg' })).toBe("a GIF's flat colours take fewer bytes lossless");
    expect(whyLarger(photo({ source: 'png', output: 'webp' }))).toEqual({ kind: 'flat-source', source: 'png' });
    // A raw source (BMP, TIFF) that grew did so by its quality.
    expect(whyLarger(photo({ source: 'bmp', output: 'jpeg' })).kind).toBe('higher-quality');
  });

  it('a target size above the source: the bytes it was given', () => {
    expect(say({ targetSize: true, source: 'heic', quality: 95 })).toBe("the target size is above the source's");
    expect(whyLarger(photo({ targetSize: true, output: 'png', quality: null, lossless: true })).kind).toBe('lossless');
  });

  it('otherwise the quality, the slider\'s or the one Smart compression chose', () => {
    expect(say({ quality: 92 })).toBe('quality 92 keeps more than the source did');
    expect(say({ quality: 88, smart: true })).toBe('Smart quality 88 keeps more than the source did');
  });
});
