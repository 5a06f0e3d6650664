import { useCallback, useEffect, useRef, useState } from 'react';
import { devicePixelLimit, makeThumbnail } from '../../conversion/bridge';
import { takeEarlyFiles } from './earlyFiles';
import { receiveLaunchedFiles, takeSharedFiles } from './systemFiles';
import { notify } from '../../app/notify';
import { displayExtension } from '../../lib/fileNames';
import { createId } from '../../lib/ids';
import { countOf } from '../../lib/plural';
import { validateFile } from './validateFile';

export interface SelectedFile {
  id: string;
  file: File;
  extension: string;
  isValid: boolean;
  validationMessage: string | null;
  /** What the visitor should know of a valid file before converting it (an animation converts its first frame); null: nothing. */
  note: string | null;
  /** Object URL of a small preview; null until made, or when the browser cannot decode the file. */
  thumbnailUrl: string | null;
}

/** An animation converts as its first frame, a multi-page file as its first page: every output here is one still image. */
function noteFor({ animated, pages }: { animated: boolean; pages: number }): string | null {
  if (animated) return 'Animated: the first frame is converted.';
  return pages > 1 ? `${pages} pages: the first page is converted.` : null;
}

/** Longest edge of a preview in the grid, in device pixels. */
const THUMBNAIL_EDGE = 240;

function announceAdded(valid: number, invalid: number): void {
  if (valid === 0) {
    notify.destructive('No valid files added', `${countOf(invalid, 'file')} had errors.`);
    return;
  }
  notify.info(`Added ${countOf(valid, 'image')}`, invalid > 0 ? `${countOf(invalid, 'file')} skipped due to errors.` : undefined);
}

export function useSelectedFiles() {
  const [files, setFiles] = useState<SelectedFile[]>([]);
  const filesRef = useRef(files);
  filesRef.current = files;

  const setThumbnail = useCallback((id: string, url: string) => {
    if (!filesRef.current.some((f) => f.id === id)) {
      URL.revokeObjectURL(url);
      return;
    }
    setFiles((current) => current.map((f) => (f.id === id ? { ...f, thumbnailUrl: url } : f)));
  }, []);

  const addFiles = useCallback(
    async (incoming: readonly File[]) => {
      if (incoming.length === 0) return;
      const pixelLimit = devicePixelLimit();
      const added = await Promise.all(
        incoming.map(async (file): Promise<SelectedFile> => {
          const result = await validateFile(file, pixelLimit);
          return {
            id: createId(),
            file,
            extension: displayExtension(file.name),
            isValid: result.isValid,
            validationMessage: result.isValid ? null : result.message,
            note: result.isValid ? noteFor(result) : null,
            thumbnailUrl: null,
          };
        }),
      );
      setFiles((current) => [...current, ...added]);
      const valid = added.filter((f) => f.isValid);
      announceAdded(valid.length, added.length - valid.length);
      for (const f of valid) {
        // A file that passes the signature check but does not decode just keeps its placeholder.
        makeThumbnail(f.file, THUMBNAIL_EDGE).then((blob) => setThumbnail(f.id, URL.createObjectURL(blob)), () => undefined);
      }
    },
    [setThumbnail],
  );

  // Files picked or dropped before the script ran (earlyFiles.ts) are added once the page is alive, and so are those
  // the system hands the installed app: shared to it, or opened with it (systemFiles.ts).
  useEffect(() => {
    const early = takeEarlyFiles();
    if (early.length > 0) void addFiles(early);
    void takeSharedFiles().then((shared) => (shared.length > 0 ? addFiles(shared) : undefined));
    receiveLaunchedFiles((launched) => void addFiles(launched));
  }, [addFiles]);

  const removeFile = useCallback((id: string) => {
    setFiles((current) => {
      const gone = current.find((f) => f.id === id);
      if (gone?.thumbnailUrl) URL.revokeObjectURL(gone.thumbnailUrl);
      return current.filter((f) => f.id !== id);
    });
  }, []);

  const clearFiles = useCallback(() => {
    setFiles((current) => {
      for (const f of current) if (f.thumbnailUrl) URL.revokeObjectURL(f.thumbnailUrl);
      return [];
    });
  }, []);

  useEffect(
    () => () => {
      for (const f of filesRef.current) if (f.thumbnailUrl) URL.revokeObjectURL(f.thumbnailUrl);
    },
    [],
  );

  return { files, addFiles, removeFile, clearFiles };
}
