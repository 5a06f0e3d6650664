import { useId, type Ref } from 'react';

interface EmailFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** Enter in the field asks to convert, even when it is blank: that is how a blank entry hears "Email required". */
  onSubmit: () => void;
  inputRef?: Ref<HTMLInputElement>;
}

export function EmailField({ value, onChange, onSubmit, inputRef }: EmailFieldProps) {
  const id = useId();
  const noteId = useId();
  return (
    <div className="field email-field">
      <label htmlFor={id}>
        Email address <span aria-hidden="true">*</span>
      </label>
      <input
        ref={inputRef}
        id={id}
        type="email"
        name="email"
        autoComplete="email"
        required
        placeholder="you@example.com"
        value={value}
        aria-describedby={noteId}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            onSubmit();
          }
        }}
      />
      <p className="field__hint" id={noteId}>
        Required to convert. Your e-mail and your files are not stored.
      </p>
    </div>
  );
}
