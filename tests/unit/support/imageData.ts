/** Node has no ImageData; the encoders take one. jSquash's own Node glue defines this same shape when it loads. */
export function provideImageData(): void {
  (globalThis as { ImageData?: unknown }).ImageData ??= class {
    constructor(
      readonly data: Uint8ClampedArray,
      readonly width: number,
      readonly height: number,
    ) {}
  };
}
