import { ascii, ftypBrands, startsWithBytes } from './pipeline/bytes';

/**
 * The format registry: one entry per image format, read by the UI (labels, accepted types, which settings apply)
 * and by the workers (signatures, encoder choice, alpha, EXIF). Adding a format is an entry here, an encoder in
 * workers/pipeline/encoders/ and a loader in wasm/ (see docs/architecture.md).
 */

export const IMAGE_FORMATS = ['jpeg', 'png', 'webp', 'avif'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** The spec's quality slider, shared by every lossy format: percent, divided by 100 for the encoders. */
export const QUALITY_RANGE = { min: 10, max: 100, step: 5 } as const;

export interface FormatInfo {
  id: ImageFormat;
  /** What the UI calls it. */
  label: string;
  /** Of output files. */
  extension: string;
  /** Other extensions files of this format go by (what the installed app offers to open: .jpeg too). */
  extensionAliases: readonly string[];
  mimeType: string;
  /** MIME subtypes accepted as this format at intake (image/jpg is a common alias). */
  mimeSubtypes: readonly string[];
  /** Whether a file's leading bytes announce this format. */
  matches: (head: Uint8Array) => boolean;
  /** Null for lossless formats: no quality setting, and a target size cannot be reached by lowering it. */
  quality: {
    /** Distinct quality levels the encoder tells apart over (0, 1]: the target-size search bisects these. */
    levels: number;
  } | null;
  /** Whether the output keeps transparency; without it the image is flattened onto the background colour. */
  alpha: boolean;
  /** Whether EXIF can be written into this container. */
  exif: boolean;
  /** Whether a browser canvas may encode it (asked at run time); otherwise only the WASM encoder can. */
  canvasEncoder: boolean;
  /**
   * Whether the browser's decoder can decode it at a fraction of its size (JPEG, in the DCT, in eighths), so a photo
   * that will be resized down need not be decoded whole.
   */
  scaledDecode: boolean;
  /** Options of the WASM encoder that "Optimised compression" runs, merged over the codec's own defaults. */
  optimisedOptions: Readonly<Record<string, number | boolean>>;
}

const AVIF_BRANDS = new Set(['avif', 'avis']);

export const FORMATS = {
  jpeg: {
    id: 'jpeg',
    label: 'JPG',
    extension: 'jpg',
    extensionAliases: ['jpeg'],
    mimeType: 'image/jpeg',
    mimeSubtypes: ['jpeg', 'jpg'],
    matches: (head) => startsWithBytes(head, [0xff, 0xd8, 0xff]),
    quality: { levels: 100 },
    alpha: false,
    exif: true,
    canvasEncoder: true,
    scaledDecode: true,
    /**
     * mozjpeg with the browser encoder's quantisation tables (JPEG Annex K) and 4:2:0 chroma, so a quality number
     * means the same picture either way and "optimised" only saves bytes (trellis quantisation, optimised Huffman
     * tables). mozjpeg's own defaults (ImageMagick tables, 4:2:2 from quality 80) made smaller files at a lower SSIM,
     * which is not a saving. Baseline, not progressive: mozjpeg's progressive scan search took 40% of the time for
     * 3% of the bytes (on photos 0.90× the browser's bytes in 5.4× its time, against 0.88× in 8.2×; README).
     */
    optimisedOptions: { quant_table: 0, auto_subsample: false, chroma_subsample: 2, progressive: false },
  },
  png: {
    id: 'png',
    label: 'PNG',
    extension: 'png',
    extensionAliases: [],
    mimeType: 'image/png',
    mimeSubtypes: ['png'],
    matches: (head) => startsWithBytes(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    quality: null,
    alpha: true,
    exif: true,
    canvasEncoder: true,
    scaledDecode: false,
    /** oxipng at level 2: its default, and the level Squoosh offers first. */
    optimisedOptions: { level: 2, interlace: false, optimiseAlpha: true },
  },
  webp: {
    id: 'webp',
    label: 'WebP',
    extension: 'webp',
    extensionAliases: [],
    mimeType: 'image/webp',
    mimeSubtypes: ['webp'],
    matches: (head) => head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP',
    // libwebp takes a float quality, which steps its per-segment quantizers more finely than whole percents.
    quality: { levels: 1000 },
    alpha: true,
    exif: true,
    canvasEncoder: true,
    scaledDecode: false,
    /**
     * libwebp at method 5: the bytes of method 6 (0.88× the browser's method-3 output at equal SSIM on the bench's
     * inputs) in a little over half its time; method 4 and below save nothing (`npm run bench:encoders`, README).
     */
    optimisedOptions: { method: 5 },
  },
  avif: {
    id: 'avif',
    label: 'AVIF',
    extension: 'avif',
    extensionAliases: [],
    mimeType: 'image/avif',
    mimeSubtypes: ['avif'],
    matches: (head) => ftypBrands(head).some((brand) => AVIF_BRANDS.has(brand)),
    quality: { levels: 100 },
    alpha: true,
    exif: false,
    // No browser encodes AVIF from a canvas (toBlob answers with PNG), so this is always libavif.
    canvasEncoder: false,
    scaledDecode: false,
    /**
     * libavif at speed 8: in the app's batch 1.39× native avifenc's time at speed 6 for the same bytes and an SSIM
     * 0.0002 lower (speed 6 took 3.2×, speed 7 2.1×; `npm run bench:encoders` and `npm run bench -- --only avif`).
     */
    optimisedOptions: { speed: 8 },
  },
} as const satisfies Record<ImageFormat, FormatInfo>;

/** One entry, seen through the common interface rather than its literal type. */
export function formatInfo(format: ImageFormat): FormatInfo {
  return FORMATS[format];
}

/** The format whose signature the leading bytes carry, or null when they match none we accept. */
export function detectFormat(head: Uint8Array): ImageFormat | null {
  return IMAGE_FORMATS.find((format) => formatInfo(format).matches(head)) ?? null;
}

/** The declared format of a MIME type we accept ("image/JPG" too), or null. */
export function formatFromMimeType(type: string): ImageFormat | null {
  const match = /^image\/([a-z0-9.+-]+)$/i.exec(type.trim());
  if (!match) return null;
  const subtype = match[1]!.toLowerCase();
  return IMAGE_FORMATS.find((format) => formatInfo(format).mimeSubtypes.includes(subtype)) ?? null;
}
