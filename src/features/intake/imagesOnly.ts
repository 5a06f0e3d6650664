/**
 * The spec: files dropped (or shared, or opened with the app) that are not of an image/ type are silently ignored.
 * A module of its own: boot.ts keeps early files with it, and must not bring the validation and the worker bridge
 * into the page's first script.
 */
export function imagesOnly(files: Iterable<File>): File[] {
  return [...files].filter((file) => file.type.startsWith('image/'));
}
