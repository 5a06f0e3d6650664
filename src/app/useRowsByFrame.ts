import { useEffect, useState } from 'react';
import { onNextFrame } from '../lib/frames.ts';

/**
 * How many of a list's `total` rows to show: a list that grows shows its first `perFrame` new rows at once and the
 * rest `perFrame` more each frame; one that shrinks shows what is left at once. The frame that first lays out a
 * batch's rows was the page's longest on a phone (docs/decisions/ui-thread-during-a-batch.md); cut into frames of a
 * few rows each, none is long, and the last rows come a few frames (tens of milliseconds) later.
 */
export function useRowsByFrame(total: number, perFrame: number): number {
  const [shown, setShown] = useState(perFrame);
  useEffect(() => {
    const least = Math.max(total, perFrame);
    if (shown > least) setShown(least);
    else if (shown < total) return onNextFrame(() => setShown((before) => Math.min(before + perFrame, total)));
  }, [shown, total, perFrame]);
  return Math.min(shown, total);
}

/**
 * Whether `on` has held since a frame ago: true a frame after it turns true, false as soon as it turns false. A part
 * that appears with something else (the queue as Convert turns into the batch's progress) comes in a frame of its own.
 */
export function useOnAFrameLater(on: boolean): boolean {
  const [later, setLater] = useState(false);
  useEffect(() => {
    if (!on) setLater(false);
    else if (!later) return onNextFrame(() => setLater(true));
  }, [on, later]);
  return on && later;
}

/**
 * As useRowsByFrame, for a list that keeps only the rows near the screen: its rows come a few a frame as it first
 * fills, from `from` (what a list taking another's place already had on screen), then all of them at once for good. Its count moves all through a batch (rows measured as their jobs change,
 * the window scrolled), and paced again each time, each move cost a render of every row for each frame it took.
 */
export function useFirstRowsByFrame(total: number, perFrame: number, from = perFrame): number {
  const [shown, setShown] = useState(Math.max(from, perFrame));
  useEffect(() => {
    if (shown < total) return onNextFrame(() => setShown((before) => (before + perFrame >= total ? Infinity : before + perFrame)));
  }, [shown, total, perFrame]);
  return Math.min(shown, total);
}
