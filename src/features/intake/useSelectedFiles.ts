import { useCallback, useEffect, useRef, useState } from 'react';
import { devicePixelLimit, makeThumbnail } from '../../conversion/bridge.ts';
import { takeEarlyFiles } from './earlyFiles.ts';
import { receiveLaunchedFiles, takeSharedFiles } from './systemFiles.ts';
import { notify } from '../../app/notify.ts';
import { displayExtension, folderOfPath } from '../../lib/fileNames.ts';
import { createId } from '../../lib/ids.ts';
import { inTurns } from '../../lib/inTurns.ts';
import { countOf } from '../../lib/plural.ts';
import type { IncomingFile } from './folders.ts';
import { validateFile } from './validateFile.ts';

export interface SelectedFile {
  id: string;
  file: File;
  /** The folder it sat in, relative to a dropped or picked folder ("Holiday/Beach"); '' for a loose file. */
  folder: string;
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

/** Files whose header is read at once as they come in (lib/inTurns.ts): a folder of thousands stays responsive. */
const VALIDATIONS_AT_ONCE = 8;

/** Thumbnails asked of the preview worker at once. */
const THUMBNAILS_AT_ONCE = 4;

/** Longest edge of a preview in the grid, in device pixels. */
const THUMBNAIL_EDGE = 240;

/** What was added, what had errors, and how many files of a folder were not images. */
function announceAdded(valid: number, invalid: number, notImages: number): void {
  const skipped = notImages > 0 ? `${countOf(notImages, 'file')} skipped: not images.` : null;
  if (valid === 0) {
    notify.destructive('No valid files added', [invalid > 0 ? `${countOf(invalid, 'file')} had errors.` : null, skipped].filter(Boolean).join(' ') || undefined);
    return;
  }
  const detail = [invalid > 0 ? `${countOf(invalid, 'file')} skipped due to errors.` : null, skipped].filter(Boolean).join(' ');
  notify.info(`Added ${countOf(valid, 'image')}`, detail || undefined);
}

/** A bare File sat in the folder its picker says (a folder picked before the page was alive: earlyFiles.ts), else none. */
const incomingFile = (incoming: File | IncomingFile): IncomingFile => (incoming instanceof File ? { file: incoming, folder: folderOfPath(incoming.webkitRelativePath ?? '') } : incoming);

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

  /**
   * Previews are made for the cards on screen or about to be, a few at a time: a card asks for its own as the grid
   * puts it in the page (a long grid puts only those near the screen: VirtualFileGrid), and stops asking as it leaves.
   * A folder of a thousand photos was otherwise a thousand decodes at intake, most for cards no one scrolls to.
   */
  const thumbnails = useRef({ wanted: new Set<string>(), making: new Set<string>() });
  const makeWantedThumbnails = useCallback(() => {
    const { wanted, making } = thumbnails.current;
    for (const id of wanted) {
      if (making.size >= THUMBNAILS_AT_ONCE) return;
      wanted.delete(id);
      const selected = filesRef.current.find((f) => f.id === id);
      if (!selected?.isValid || selected.thumbnailUrl || making.has(id)) continue;
      making.add(id);
      // A file that passes the signature check but does not decode just keeps its placeholder.
      void makeThumbnail(selected.file, THUMBNAIL_EDGE)
        .then((blob) => setThumbnail(id, URL.createObjectURL(blob)), () => undefined)
        .finally(() => {
          making.delete(id);
          makeWantedThumbnails();
        });
    }
  }, [setThumbnail]);
  /** A card on screen asks for its preview; the function it gets back says it has left. */
  const wantThumbnail = useCallback(
    (id: string) => {
      thumbnails.current.wanted.add(id);
      makeWantedThumbnails();
      return () => void thumbnails.current.wanted.delete(id);
    },
    [makeWantedThumbnails],
  );

  /** Adds files picked, dropped, pasted or handed over; `notImages`: the other files of a folder, counted. */
  const addFiles = useCallback(
    async (incoming: readonly (File | IncomingFile)[], notImages = 0) => {
      if (incoming.length === 0) {
        if (notImages > 0) announceAdded(0, 0, notImages);
        return;
      }
      const pixelLimit = devicePixelLimit();
      const added = await inTurns(
        incoming.map(incomingFile),
        VALIDATIONS_AT_ONCE,
        async ({ file, folder }): Promise<SelectedFile> => {
          const result = await validateFile(file, pixelLimit);
          return {
            id: createId(),
            file,
            folder,
            extension: displayExtension(file.name),
            isValid: result.isValid,
            validationMessage: result.isValid ? null : result.message,
            note: result.isValid ? noteFor(result) : null,
            thumbnailUrl: null,
          };
        },
      );
      setFiles((current) => [...current, ...added]);
      const valid = added.filter((f) => f.isValid);
      announceAdded(valid.length, added.length - valid.length, notImages);
    },
    [],
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

  return { files, addFiles, removeFile, clearFiles, wantThumbnail };
}
