import { describe, expect, it } from 'vitest';
import { applyMatrix, planView, viewMatrix } from '../../core/view.ts';
import { actualSizeZoom, clampViewport, fitZoom, fitted, panBy, scaledRect, toImage, visibleRect, zoomAbout } from '../../src/features/compare/viewport.ts';

const IMAGE = { width: 4000, height: 3000 };
const VIEW = { width: 400, height: 300 };

describe('the compare view: where it looks', () => {
  it('fits the whole image, and 1:1 is one image pixel per device pixel', () => {
    expect(fitZoom(IMAGE, VIEW)).toBe(0.1);
    expect(actualSizeZoom(IMAGE, VIEW, 2)).toBe(0.5);
    // A small image's 1:1 is its fit: the view never enlarges past it.
    expect(actualSizeZoom({ width: 100, height: 50 }, VIEW, 1)).toBe(4);
  });

  it('keeps the zoom between the fit and 1:1, and the image over the whole view', () => {
    expect(clampViewport({ zoom: 10, centre: { x: 0, y: 0 } }, IMAGE, VIEW, 1)).toEqual({ zoom: 1, centre: { x: 200, y: 150 } });
    expect(clampViewport({ zoom: 0.01, centre: { x: 0, y: 0 } }, IMAGE, VIEW, 1)).toEqual(fitted(IMAGE, VIEW));
  });

  it('zooming about a point keeps the image point under it', () => {
    const start = fitted(IMAGE, VIEW);
    const point = { x: 100, y: 75 };
    const under = toImage(start, point, VIEW);
    const zoomed = zoomAbout(start, 4, point, IMAGE, VIEW, 1);
    expect(zoomed.zoom).toBeCloseTo(0.4);
    expect(toImage(zoomed, point, VIEW).x).toBeCloseTo(under.x);
    expect(toImage(zoomed, point, VIEW).y).toBeCloseTo(under.y);
  });

  it('a drag moves the image with the finger, and stops at its edges', () => {
    const view = { zoom: 1, centre: { x: 2000, y: 1500 } };
    expect(panBy(view, 50, -20, IMAGE, VIEW, 1).centre).toEqual({ x: 1950, y: 1520 });
    expect(panBy(view, 1e6, 1e6, IMAGE, VIEW, 1).centre).toEqual({ x: 200, y: 150 });
  });

  it('the visible part, in whole output pixels, and the same part of the framed original', () => {
    expect(visibleRect({ zoom: 1, centre: { x: 2000, y: 1500 } }, IMAGE, VIEW)).toEqual({ x: 1800, y: 1350, width: 400, height: 300 });
    expect(scaledRect({ x: 10, y: 20, width: 30, height: 40 }, 2)).toEqual({ x: 20, y: 40, width: 60, height: 80 });
  });
});

describe('the compare view: a picture the worker draws', () => {
  const upright = { width: 400, height: 300 };

  it('fits the framed image into its box, never larger than its own pixels', () => {
    expect(planView(upright, null, null, { width: 200, height: 200 })).toEqual({ size: { width: 200, height: 150 }, scale: 0.5, origin: { x: 0, y: 0 } });
    expect(planView(upright, null, { x: 10, y: 20, width: 50, height: 50 }, { width: 1000, height: 1000 })).toEqual({ size: { width: 50, height: 50 }, scale: 1, origin: { x: 10, y: 20 } });
  });

  it('turns the upright image as the rotation setting does, then crops: the corners land where the output has them', () => {
    // A quarter turn right: the upright top-left corner becomes the top-right one of a 300 × 400 image.
    const framing = { rotation: 90, crop: { x: 0, y: 0, width: 300, height: 400 } };
    const plan = planView(upright, framing, null, { width: 300, height: 400 });
    const matrix = viewMatrix(plan, upright, framing, 1);
    expect(applyMatrix(matrix, 0, 0)).toEqual({ x: 300, y: 0 });
    expect(applyMatrix(matrix, 400, 300)).toEqual({ x: 0, y: 400 });
    // Upside down, and a crop of the turned image's middle.
    const half = { rotation: 180, crop: { x: 100, y: 50, width: 200, height: 200 } };
    const cropped = viewMatrix(planView(upright, half, null, { width: 200, height: 200 }), upright, half, 1);
    expect(applyMatrix(cropped, 300, 250)).toEqual({ x: 0, y: 0 });
    // A quarter turn left, drawn from a bitmap decoded at half size.
    const left = { rotation: 270, crop: { x: 0, y: 0, width: 300, height: 400 } };
    const small = viewMatrix(planView(upright, left, null, { width: 300, height: 400 }), upright, left, 0.5);
    expect(applyMatrix(small, 200, 0)).toEqual({ x: 0, y: 0 });
  });
});
