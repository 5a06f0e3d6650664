/** An ImageData-shaped RGBA buffer (non-premultiplied, sRGB) that plain Node tests can build too. */
export interface RawImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

export function createRawImage(width: number, height: number): RawImage {
  return { data: new Uint8ClampedArray(width * height * 4), width, height };
}
