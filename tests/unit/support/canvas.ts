/** What a page asks of its browser's canvas (src/conversion/canvasTypes.ts), for plans made in Node. */

/** A browser whose canvas encodes every type the registry allows it to, as Chromium and Firefox do. */
export const chromiumCanvas = (_mimeType: string) => true;

/** Safari's and WebKitGTK's canvas, which has no WebP encoder (it answers with a PNG). */
export const webkitCanvas = (mimeType: string) => mimeType !== 'image/webp';
