import type { ImageFormat } from '../../contract';
import type { RawImage } from '../raw-image';

export interface EncodeOptions {
  /** 0–1; ignored by lossless formats. */
  quality: number;
  /** Use the size-optimising WASM encoder (mozjpeg, libwebp, oxipng) rather than the browser's. */
  optimise: boolean;
}

export interface Encoder {
  format: ImageFormat;
  mimeType: string;
  extension: string;
  /** Whether quality changes the size: target-size search is meaningless otherwise. */
  lossy: boolean;
  /** Distinct quality levels over (0, 1]: 100 for encoders that take whole percents, more for float ones. */
  qualityLevels: number;
  encode(image: RawImage, options: EncodeOptions): Promise<ArrayBuffer>;
}
