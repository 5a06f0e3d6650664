/**
 * Toasts with a title and an optional line; "destructive" ones are the spec's error style. The toast library and
 * its root load with the first toast (toaster.tsx): the idle page does not need them.
 */
import { afterNextFrame } from '../lib/frames.ts';

type Toaster = typeof import('./toaster.tsx');
let toaster: Promise<Toaster> | null = null;

/**
 * A toast mounts after the next frame has rendered: the toast library measures each one as it mounts, and measuring
 * lays out first whatever the page has changed since its last frame (a batch's end, say). Mounted after that frame,
 * the layout is the toast's alone.
 */
function withToaster(use: (toaster: Toaster) => void): void {
  toaster ??= import('./toaster.tsx');
  void toaster.then((module) => afterNextFrame(() => use(module)));
}

export const notify = {
  info(title: string, message?: string): void {
    withToaster((t) => t.show('success', title, message));
  },
  destructive(title: string, message?: string): void {
    withToaster((t) => t.show('error', title, message));
  },
  /** A toast that stays until answered: the title, then a button (the action's label) that runs it. */
  offer(title: string, actionLabel: string, run: () => void): void {
    withToaster((t) => t.offer(title, { label: actionLabel, run }));
  },
  /** Takes a toast down before its time, when what it said no longer holds (none is up before the first). */
  dismiss(title: string): void {
    // After any toast asked for before it, in order.
    if (toaster) withToaster((t) => t.dismiss(title));
  },
};
