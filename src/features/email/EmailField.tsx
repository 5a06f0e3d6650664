import { memo, useId, type RefObject } from 'react';
import { useValueFromBeforeHydration } from '../../app/useValueFromBeforeHydration.ts';
import { config } from '../../app/config.ts';
import { privacyNote } from '../integrations/integrationConfig.ts';

/** Built with the page: the configuration is fixed at build time. */
const PRIVACY_NOTE = privacyNote(config.integrations);

interface EmailFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** Enter in the field asks to convert, even when it is blank: that is how a blank entry hears "Email required". */
  onSubmit: () => void;
  inputRef: RefObject<HTMLInputElement | null>;
}

/** The input's name, which also finds it on the page before React has hydrated the field (focusEmailField). */
const NAME = 'email';

/**
 * Moves the focus to the field. The page may hydrate the field after what asks (it sits in a boundary of its own):
 * until then `inputRef` is empty, but the input the server rendered is on the page to take the focus.
 */
export function focusEmailField(inputRef: RefObject<HTMLInputElement | null>): void {
  (inputRef.current ?? document.querySelector<HTMLInputElement>(`input[name="${NAME}"]`))?.focus();
}

/** Memoised: a settings tap re-renders the page component, not this field (its props do not change). */
export const EmailField = memo(function EmailField({ value, onChange, onSubmit, inputRef }: EmailFieldProps) {
  const id = useId();
  const noteId = useId();
  // An address typed or autofilled while the page was still loading.
  useValueFromBeforeHydration(inputRef, (element) => element.value, value, onChange);
  return (
    <div className="field email-field">
      <label htmlFor={id}>
        Email address <span aria-hidden="true">*</span>
      </label>
      <input
        ref={inputRef}
        id={id}
        type="email"
        name={NAME}
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
        {PRIVACY_NOTE}
      </p>
    </div>
  );
});
