/** Minimal leading bytes of each format, for tests that need a file's head but not a decodable image. */
export const HEADS = {
  jpeg: [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46],
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d],
  webp: [...'RIFF'].map((c) => c.charCodeAt(0)).concat([0x24, 0, 0, 0], [...'WEBPVP8 '].map((c) => c.charCodeAt(0))),
  avif: ftyp('avif', ['mif1', 'miaf']),
} as const;

/** An ISO-BMFF ftyp box with the given major and compatible brands. */
export function ftyp(major: string, compatible: string[]): number[] {
  const brands = [major, '\0\0\0\0', ...compatible].join('');
  const size = 8 + brands.length;
  return [0, 0, 0, size, ...'ftyp'.split('').map((c) => c.charCodeAt(0)), ...brands.split('').map((c) => c.charCodeAt(0))];
}

/** A Blob of `size` bytes that starts with `head` and is padded with zeros. */
export function blobOf(head: readonly number[], size: number, type: string): Blob {
  const bytes = new Uint8Array(size);
  bytes.set(head.slice(0, size));
  return new Blob([bytes], { type });
}
