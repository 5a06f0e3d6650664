export function normaliseEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

export type EmailProblem = 'required' | 'invalid';

export const EMAIL_MESSAGES: Record<EmailProblem, { title: string; message: string }> = {
  required: { title: 'Email required', message: 'Please enter your email address to convert images.' },
  invalid: { title: 'Invalid email', message: 'Please enter a valid email address.' },
};

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The problem with a raw e-mail entry, judged after normalising, or null when it is usable. */
export function emailProblem(raw: string): EmailProblem | null {
  const email = normaliseEmail(raw);
  if (email === '') return 'required';
  return EMAIL_PATTERN.test(email) ? null : 'invalid';
}
