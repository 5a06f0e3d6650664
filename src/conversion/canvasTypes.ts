const answers = new Map<string, boolean>();

/**
 * Whether this browser's canvas encodes `mimeType`, asked once per type of a 1 × 1 canvas (a canvas that cannot
 * answers with a PNG): Safari and WebKitGTK have no WebP encoder, so their WebP jobs run libwebp's WASM build, whose
 * heap the plan must count. The workers' OffscreenCanvas has the same encoders. Where there is no document (Node),
 * the registry's word stands.
 */
export function browserEncodes(mimeType: string): boolean {
  if (typeof document === 'undefined') return true;
  let answer = answers.get(mimeType);
  if (answer === undefined) {
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    answer = canvas.toDataURL(mimeType).startsWith(`data:${mimeType}`);
    answers.set(mimeType, answer);
  }
  return answer;
}
