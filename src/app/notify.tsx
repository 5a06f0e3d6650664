import { useSyncExternalStore } from 'react';
import toast, { Toaster, type Toast } from 'react-hot-toast';

function ToastBody({ title, message, toastId }: { title: string; message?: string; toastId: string }) {
  return (
    <div className="toast-body">
      <strong className="toast-title">{title}</strong>
      {message ? <span className="toast-message">{message}</span> : null}
      <button type="button" className="toast-close" aria-label={`Dismiss "${title}"`} onClick={() => toast.dismiss(toastId)}>
        ×
      </button>
    </div>
  );
}

/**
 * A still icon. react-hot-toast's own success and error icons keep an endlessly spinning loader behind them while
 * the toast is up, which restyled the page every frame during the first seconds of a batch (Chromium trace).
 */
function ToastIcon({ tone }: { tone: 'success' | 'error' }) {
  return (
    <span className={`toast-icon toast-icon--${tone}`} aria-hidden="true">
      {tone === 'success' ? '✓' : '!'}
    </span>
  );
}

/**
 * Toasts with a title and an optional line; "destructive" ones are the spec's error style.
 * The title is the toast's id, so pressing Convert twice shows one "Invalid email", not a stack.
 */
export const notify = {
  info(title: string, message?: string) {
    return toast.success((t: Toast) => <ToastBody title={title} message={message} toastId={t.id} />, { id: title, icon: <ToastIcon tone="success" /> });
  },
  destructive(title: string, message?: string) {
    return toast.error((t: Toast) => <ToastBody title={title} message={message} toastId={t.id} />, {
      id: title,
      className: 'toast-destructive',
      icon: <ToastIcon tone="error" />,
    });
  },
  /** Takes a toast down before its time, when what it said no longer holds. */
  dismiss(title: string) {
    toast.dismiss(title);
  },
};

const PHONE = '(max-width: 40rem)';

/**
 * How far above the bottom toasts sit on a phone: the action bar's height, which the bar reports. A small store of
 * its own rather than a CSS variable on the root, whose every change restyled the whole page (a long frame mid-batch).
 */
let toastBottom = 112;
const toastBottomListeners = new Set<() => void>();

export function setToastBottom(pixels: number): void {
  if (pixels === toastBottom) return;
  toastBottom = pixels;
  for (const listener of toastBottomListeners) listener();
}

function subscribeToToastBottom(onChange: () => void): () => void {
  toastBottomListeners.add(onChange);
  return () => toastBottomListeners.delete(onChange);
}

function subscribeToPhone(onChange: () => void): () => void {
  const query = window.matchMedia(PHONE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * Where toasts appear: on a phone at the bottom, just above the action bar, under the thumb and over no control; on a
 * larger screen in the top right corner, beside the page's header, away from the file and queue controls.
 */
export function AppToaster() {
  const phone = useSyncExternalStore(subscribeToPhone, () => window.matchMedia(PHONE).matches);
  const bottom = useSyncExternalStore(subscribeToToastBottom, () => toastBottom);
  return (
    <Toaster
      position={phone ? 'bottom-center' : 'top-right'}
      containerStyle={phone ? { bottom: bottom + 8 } : undefined}
      toastOptions={{ duration: 5000 }}
    />
  );
}
