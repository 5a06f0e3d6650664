import type { ImageFormat } from '../../formats';
import type { RawImage } from '../raw-image';

export interface EncodeOptions {
  /** 0–1; ignored by lossless formats. */
  quality: number;
  /** Use the size-optimising WASM encoder (mozjpeg, libwebp, oxipng) rather than the browser's. */
  optimise: boolean;
}

/** One per output format; what the format is (MIME type, lossy or not, alpha) is in its registry entry. */
export interface Encoder {
  format: ImageFormat;
  encode(image: RawImage, options: EncodeOptions): Promise<ArrayBuffer>;
}
