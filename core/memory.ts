/**
 * How much image a device can hold: the pixel limit for one image and the memory budget the conversion pool's
 * running jobs share. Both follow `navigator.deviceMemory` (a power of two, clamped by the browser: Chromium once
 * reported at most 8 GB, Chromium 156 reports 16 on a 24 GB desktop); where the browser keeps it to itself, a 4 GB
 * device is assumed. The numbers behind the constants are explained in docs/decisions/memory-budget.md.
 */

const MEGAPIXEL = 1_000_000;

/** Assumed where the browser does not say: a mid-range phone. */
const UNKNOWN_DEVICE_GB = 4;

/** Pixels allowed per GB of device memory, for one image (source or output). */
const PIXELS_PER_GB = 25 * MEGAPIXEL;

/** Never more than this, whatever the device: 400 MB of RGBA, the most one conversion may hold. */
const MAX_PIXELS = 100 * MEGAPIXEL;

/**
 * What the running conversions may hold together (JobPlan.cost), per GB of device memory, on a device of up to 4 GB:
 * the memory goal (peak at most 1.5× the seed design's, which converts one photo at a time) is for phones, which have
 * no memory to spare. Two 12 MP photos through the browser's encoder at once peaked at 1.66× (a 4 GB device, 48 MB
 * per GB); at 36 MB per GB a 4 GB device runs one 12 MP photo at a time, and two or three smaller ones.
 */
const CONVERSION_BYTES_PER_GB = 36 * 1024 * 1024;

/** Never less than this, whatever the device: three 2 MP photos at once through the browser's encoder. */
const LEAST_CONVERSION_BYTES = 48 * 1024 * 1024;

/**
 * From 8 GB a device has memory for its cores: twice as much per GB, up to an 8 GB device's 768 MB (more memory is
 * shared with more tabs and apps). Three 12 MP libwebp encodes (about 206 MB each) fit, so a desktop's cores are
 * not left idle by the budget (docs/decisions/memory-budget.md).
 */
const ROOMY_DEVICE_GB = 8;
const ROOMY_CONVERSION_BYTES_PER_GB = 96 * 1024 * 1024;

/** RGBA, 8 bits a channel: what every decoder here produces. */
const BYTES_PER_PIXEL = 4;

/** The device's memory in GB as the browser reports it, or null where it does not. */
export function deviceMemoryGb(navigatorLike: { deviceMemory?: unknown } | undefined = globalThis.navigator as { deviceMemory?: unknown } | undefined): number | null {
  const value = navigatorLike?.deviceMemory;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

/** The most pixels one image (the source, or the output a resize asks for) may have on this device. */
export function pixelLimit(memoryGb: number | null): number {
  return Math.min(MAX_PIXELS, Math.round((memoryGb ?? UNKNOWN_DEVICE_GB) * PIXELS_PER_GB));
}

/**
 * What the conversion pool's running jobs may hold at once (JobPlan.cost: decoded pixels, and what their encoder
 * holds). With the browser's encoder, one 12 MP photo at a time up to 4 GB (two 8 MP ones, three 6 MP ones on 4 GB),
 * three on 8 GB and more; with jpegli, or libwebp where a browser has no WebP encoder (their heaps hold two to four
 * times the photo's pixels), one 12 MP photo at a time up to 4 GB and three from 8 GB. Small images run three at a
 * time everywhere. A job larger than the budget runs alone.
 */
export function conversionBudget(memoryGb: number | null): number {
  const gb = memoryGb ?? UNKNOWN_DEVICE_GB;
  return gb >= ROOMY_DEVICE_GB ? ROOMY_DEVICE_GB * ROOMY_CONVERSION_BYTES_PER_GB : Math.max(LEAST_CONVERSION_BYTES, gb * CONVERSION_BYTES_PER_GB);
}

/**
 * Whether conversions take turns to decode (workers/pipeline/decode.ts oneDecodeAtATime): up to 4 GB, where a 12 MP
 * decode's burst of ~100 MB beside another's is what a phone cannot spare and two at once starve its UI thread. From
 * 8 GB the budget already counts each running job's decoded pixels, and turns would leave a desktop's cores idle
 * (a 12 MP photo's decode and read-out is most of a jpegli conversion; docs/benchmark.md).
 */
export function decodesTakeTurns(memoryGb: number | null): boolean {
  return !hasRoomForItsCores(memoryGb);
}

/**
 * A device that reports 8 GB or more: memory for every core's work (the budget above, decodes at once, libavif's
 * threads). Where the browser does not say (Safari), a phone is assumed: a threaded libavif reserves a shared memory
 * of up to 2 GB and starts a thread a core, more than iOS lets a page hold safely.
 */
export function hasRoomForItsCores(memoryGb: number | null): boolean {
  return (memoryGb ?? UNKNOWN_DEVICE_GB) >= ROOMY_DEVICE_GB;
}

export function decodedBytes(size: { width: number; height: number }): number {
  return size.width * size.height * BYTES_PER_PIXEL;
}

/**
 * Megapixels as a visitor reads them: whole numbers, except where rounding would hide that an image is over the
 * limit (100.4 MP against a limit of 100 reads "100.4", not "100").
 */
export function megapixels(pixels: number, limit: number): string {
  const whole = Math.round(pixels / MEGAPIXEL);
  if (pixels <= limit || whole > limit / MEGAPIXEL) return String(whole);
  return String(Math.ceil((pixels / MEGAPIXEL) * 10) / 10);
}
