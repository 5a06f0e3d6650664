import { useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import toast, { Toaster, type Toast } from 'react-hot-toast';
import { subscribeToToastBottom, toastBottomPixels } from './toastBottom.ts';

export interface ToastAction {
  label: string;
  run: () => void;
}

function ToastBody({ title, message, action, toastId }: { title: string; message?: string; action?: ToastAction; toastId: string }) {
  return (
    <div className="toast-body">
      <p>
        <strong className="toast-title">{title}</strong>
        {action ? (
          <>
            {' — '}
            <button
              type="button"
              className="toast-action"
              onClick={() => {
                toast.dismiss(toastId);
                action.run();
              }}
            >
              {action.label}
            </button>
          </>
        ) : null}
      </p>
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

/** Shows a toast; its title is its id, so pressing Convert twice shows one "Invalid email", not a stack. */
export function show(tone: 'success' | 'error', title: string, message?: string): void {
  const content = (t: Toast) => <ToastBody title={title} message={message} toastId={t.id} />;
  if (tone === 'success') toast.success(content, { id: title, icon: <ToastIcon tone="success" /> });
  else toast.error(content, { id: title, className: 'toast-destructive', icon: <ToastIcon tone="error" /> });
}

/** A toast that stays until answered or dismissed, with one action. */
export function offer(title: string, action: ToastAction): void {
  toast.success((t: Toast) => <ToastBody title={title} action={action} toastId={t.id} />, { id: title, duration: Infinity, icon: <ToastIcon tone="success" /> });
}

export function dismiss(title: string): void {
  toast.dismiss(title);
}

const PHONE = '(max-width: 40rem)';

function subscribeToPhone(onChange: () => void): () => void {
  const query = window.matchMedia(PHONE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * Where toasts appear: on a phone at the bottom, just above the action bar, under the thumb and over no control; on a
 * larger screen in the top right corner, beside the page's header, away from the file and queue controls.
 */
function AppToaster() {
  const phone = useSyncExternalStore(subscribeToPhone, () => window.matchMedia(PHONE).matches);
  return <Toaster position={phone ? 'bottom-center' : 'top-right'} containerStyle={phone ? ABOVE_THE_ACTION_BAR : undefined} toastOptions={{ duration: 5000 }} />;
}

/** The bar's height is a custom property of the toasts' own container, set as the bar reports it (below). */
const ABOVE_THE_ACTION_BAR = { bottom: 'calc(var(--toast-bottom) + 8px)' };

// Its own root beside the page's, made when the first toast is asked for.
const container = document.createElement('div');
/**
 * Written straight to the container, not rendered: the bar changes height as a batch starts and ends, and re-rendering
 * the toaster then re-rendered every toast inside the frame that shows the change (the batch's end on a phone).
 */
const followTheBar = () => container.style.setProperty('--toast-bottom', `${toastBottomPixels()}px`);
followTheBar();
subscribeToToastBottom(followTheBar);
document.body.append(container);
createRoot(container).render(<AppToaster />);
