import { useEffect, useRef, useState, type RefObject } from 'react';
import { useWindowList } from '../../app/useWindowList.ts';
import type { FileState } from '../queue/convertPlan.ts';
import { FileCard } from './FileCard.tsx';
import type { SelectedFile } from './useSelectedFiles.ts';

/**
 * The grid's columns as `.file-grid` lays them out: minmax(160px, 1fr) with a 0.75rem gap, or two columns with a
 * 0.5rem gap on a screen up to 480 px wide (styles.css).
 */
const CARD_MIN = 160;
const NARROW = '(max-width: 480px)';
/** A card's body under its 4:3 thumbnail: name, size and state. */
const CARD_BODY = 80;

interface GridColumns {
  count: number;
  width: number;
  gap: number;
}

/** The columns of the grid in `element`, from its ResizeObserver entries (never read in the middle of a render). */
function useColumns(element: RefObject<HTMLElement | null>): GridColumns {
  const [columns, setColumns] = useState<GridColumns>({ count: 1, width: CARD_MIN, gap: 12 });
  useEffect(() => {
    const target = element.current;
    if (!target) return;
    const observer = new ResizeObserver(([entry]) => {
      const width = entry?.contentBoxSize[0]?.inlineSize ?? 0;
      const narrow = window.matchMedia(NARROW).matches;
      const gap = narrow ? 8 : 12;
      const count = narrow ? 2 : Math.max(1, Math.floor((width + gap) / (CARD_MIN + gap)));
      setColumns({ count, width: (width - (count - 1) * gap) / count, gap });
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [element]);
  return columns;
}

/**
 * A long selection (a phone's 200 photos) as the cards near the screen only, in as many columns as the grid would
 * have (useWindowList with lanes): adding the files, Convert and the run's end change a few dozen cards, not 200.
 */
export default function VirtualFileGrid({ files, states, onRemove, onPreview, onShown, onRendered }: {
  files: readonly SelectedFile[];
  states: ReadonlyMap<string, FileState>;
  onRemove: (id: string) => void;
  onPreview: (file: File, opener: HTMLElement) => void;
  onShown: (id: string) => () => void;
  /** After each render: the cards near the screen are in the page (the grid keeps a focused card's focus with it). */
  onRendered: () => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const columns = useColumns(box);
  const { list, virtualizer, listTop } = useWindowList<HTMLUListElement>({
    count: files.length,
    estimate: Math.round((columns.width * 3) / 4 + CARD_BODY),
    gap: columns.gap,
    lanes: columns.count,
    overscan: 2 * columns.count,
    keyOf: (index) => files[index]!.id,
  });
  useEffect(() => onRendered());
  return (
    <div ref={box}>
      <ul ref={list} className="file-grid file-grid--virtual" style={{ blockSize: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const file = files[item.index]!;
          return (
            <FileCard
              key={item.key}
              file={file}
              state={states.get(file.id) ?? 'ready'}
              onRemove={onRemove}
              onPreview={onPreview}
              onShown={onShown}
              place={{ index: item.index, top: item.start - listTop, left: item.lane * (columns.width + columns.gap), width: columns.width, measure: virtualizer.measureElement }}
            />
          );
        })}
      </ul>
    </div>
  );
}
