import { FORMATS, type ImageFormat } from '../../core/formats.ts';

/** Index of the dot that starts the extension, or -1 ("photo", ".bashrc", "photo." and "Trip.2024/photo" have none). */
function extensionDot(name: string): number {
  const dot = name.lastIndexOf('.');
  const start = name.lastIndexOf('/') + 1;
  return dot > start && dot < name.length - 1 ? dot : -1;
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

/**
 * The folder a file sat in, relative to what the visitor dropped or picked ("Holiday/Beach" for a picked folder's
 * "Holiday/Beach/photo.jpg"), or '' for a loose file. Only plain names are kept: no empty, "." or ".." segment, and
 * no separator but "/", so a path can never climb out of the zip's or the folder's root.
 */
export function folderOfPath(relativePath: string): string {
  const segments = relativePath.split(/[/\\]/).filter((segment) => segment !== '' && segment !== '.' && segment !== '..');
  return segments.slice(0, -1).join('/');
}

/** A name inside its folder, as a zip entry or a path under a picked folder: "Holiday/Beach/photo.webp". */
export function pathInFolder(folder: string, name: string): string {
  return folder ? `${folder}/${name}` : name;
}
