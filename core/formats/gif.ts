import { ascii } from '../bytes.ts';
import type { SourceFormatInfo } from '../format.ts';

/** GIF, as a source only: every browser decodes it (the first frame of an animation), none encodes it. */
export const gif = {
  id: 'gif',
  label: 'GIF',
  extension: 'gif',
  extensionAliases: [],
  mimeType: 'image/gif',
  mimeSubtypes: ['gif'],
  matches: (head) => head.length >= 6 && /^GIF8[79]a$/.test(ascii(head, 0, 6)),
  alpha: true,
  scaledDecode: false,
} as const satisfies SourceFormatInfo<'gif'>;
