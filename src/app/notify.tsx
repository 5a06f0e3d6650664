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
 * Toasts with a title and an optional line; "destructive" ones are the spec's error style.
 * The title is the toast's id, so pressing Convert twice shows one "Invalid email", not a stack.
 */
export const notify = {
  info(title: string, message?: string) {
    return toast.success(<ToastBody title={title} message={message} />, { id: title });
  },
  destructive(title: string, message?: string) {
    return toast.error(<ToastBody title={title} message={message} />, { id: title, className: 'toast-destructive' });
  },
};
