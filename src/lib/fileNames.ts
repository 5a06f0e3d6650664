import { FORMATS, type ImageFormat } from '../../core/formats';

/** Index of the dot that starts the extension, or -1 ("photo", ".bashrc" and "photo." have none). */
function extensionDot(name: string): number {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? dot : -1;
}

/** The extension upper-cased for display, or 'Unknown'. */
export function displayExtension(name: string): string {
  const dot = extensionDot(name);
  return dot === -1 ? 'Unknown' : name.slice(dot + 1).toUpperCase();
}

/** The original name without its last extension plus the output's: photo.png → photo.webp, jpeg → .jpg. */
export function outputFileName(name: string, format: ImageFormat): string {
  const dot = extensionDot(name);
  const base = dot === -1 ? name : name.slice(0, dot);
  return `${base || 'image'}.${FORMATS[format].extension}`;
}

/** The name as the nth of its kind: photo.webp, then photo (2).webp, photo (3).webp. */
export function numberedFileName(name: string, n: number): string {
  if (n <= 1) return name;
  const dot = extensionDot(name);
  return dot === -1 ? `${name} (${n})` : `${name.slice(0, dot)} (${n})${name.slice(dot)}`;
}

/** Makes names unique within one archive: photo.webp, photo (2).webp, photo (3).webp. */
export function uniqueFileNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = numberedFileName(name, n);
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}
