import { memo, useId, type RefObject } from 'react';
import { useValueFromBeforeHydration } from '../../app/useValueFromBeforeHydration';
import { config } from '../../app/config';
import { privacyNote } from '../integrations/integrationConfig';

/** Built with the page: the configuration is fixed at build time. */
const PRIVACY_NOTE = privacyNote(config.integrations);

interface EmailFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** Enter in the field asks to convert, even when it is blank: that is how a blank entry hears "Email required". */
  onSubmit: () => void;
  inputRef: RefObject<HTMLInputElement | null>;
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
        {PRIVACY_NOTE}
      </p>
    </div>
  );
});
