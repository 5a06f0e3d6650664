import toast from 'react-hot-toast';

function ToastBody({ title, message }: { title: string; message?: string }) {
  return (
    <div className="toast-body">
      <strong className="toast-title">{title}</strong>
      {message ? <span className="toast-message">{message}</span> : null}
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
    return toast.success(<ToastBody title={title} message={message} />, { id: title, icon: <ToastIcon tone="success" /> });
  },
  destructive(title: string, message?: string) {
    return toast.error(<ToastBody title={title} message={message} />, { id: title, className: 'toast-destructive', icon: <ToastIcon tone="error" /> });
  },
};
