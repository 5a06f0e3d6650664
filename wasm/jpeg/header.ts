import type { ByteSource } from '../../core/byte-source.ts';
import type { HeaderRead } from '../../core/format.ts';
import { asOrientation } from '../../core/orientation.ts';
import { startsWithBytes, u16be } from '../../core/bytes.ts';
import type { Size } from '../../core/geometry.ts';
import { EXIF_PREFIX, exifOrientation } from '../../core/exif.ts';

/**
 * A JPEG's stored size and EXIF orientation, found by walking its segments from the start: each segment's marker
 * and length are read and its body skipped, so a frame header behind megabytes of extended XMP, ICC profiles or a
 * Photoshop thumbnail costs a few small reads, not the file. Only the first EXIF segment is read whole.
 */

/** Segments and stray bytes walked before giving up: real files have tens to a few hundred, 7 MB of XMP 110. */
const MAX_STEPS = 1 << 16;

/** Every start-of-frame marker: baseline, extended, progressive, lossless, hierarchical, arithmetic (not DHT, JPG, DAC). */
export function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Markers without a length: TEM, RST0–7, SOI. */
const isStandalone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8);

export interface JpegHeader {
  size: Size;
  /** EXIF orientation, 1–8 (1 without EXIF). */
  orientation: number;
}

export async function readJpegHeader(source: ByteSource): Promise<JpegHeader | null> {
  if (!startsWithBytes(await source.read(0, 2), [0xff, 0xd8])) return null;
  let orientation: number | null = null;
  let offset = 2;
  for (let step = 0; step < MAX_STEPS && offset < source.size; step++) {
    const head = await source.read(offset, 4);
    // Fill bytes (0xFF runs) and stray bytes between segments are skipped, as libjpeg does with a warning.
    if (head[0] !== 0xff || head[1] === 0xff || head[1] === 0x00) {
      offset += 1;
      continue;
    }
    const marker = head[1];
    if (marker === undefined) return null;
    if (isStandalone(marker)) {
      offset += 2;
      continue;
    }
    // Entropy-coded data or the end of the image before any frame header: no size to read.
    if (marker === 0xda || marker === 0xd9 || head.length < 4) return null;
    const length = u16be(head, 2);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      const frame = await source.read(offset + 4, 5);
      const height = u16be(frame, 1);
      const width = u16be(frame, 3);
      // A height of 0 is left to a DNL segment after the first scan, which browsers do not support.
      if (frame.length < 5 || width === 0 || height === 0) return null;
      return { size: { width, height }, orientation: orientation ?? 1 };
    }
    if (marker === 0xe1 && orientation === null) {
      const body = await source.read(offset + 4, length - 2);
      if (startsWithBytes(body, EXIF_PREFIX)) orientation = exifOrientation(body.subarray(EXIF_PREFIX.length));
    }
    offset += 2 + length;
  }
  return null;
}

/** The registry's reader (core/format.ts): the size, and the EXIF orientation. */
export async function readHeader(source: ByteSource): Promise<HeaderRead | null> {
  const header = await readJpegHeader(source);
  return header && { size: header.size, orientation: asOrientation(header.orientation) };
}
