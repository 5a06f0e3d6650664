/** A unique id for a file or job within this page's life. */
export function createId(): string {
  return crypto.randomUUID();
}
