import { describe, expect, it } from 'vitest';
import { EMAIL_MESSAGES, emailProblem, normaliseEmail } from '../../src/features/email/email.ts';

describe('e-mail', () => {
  it('is trimmed and lower-cased before use', () => {
    expect(normaliseEmail('  Ada@Example.COM \n')).toBe('ada@example.com');
  });

  it('blank (or only spaces) is required', () => {
    expect(emailProblem('')).toBe('required');
    expect(emailProblem('   ')).toBe('required');
    expect(EMAIL_MESSAGES.required).toEqual({ title: 'Email required', message: 'Please enter your email address to convert images.' });
  });

  it.each(['ada', 'ada@', '@example.com', 'ada@example', 'ada lovelace@example.com', 'ada@exa mple.com', 'a@b@c.com'])('%s is invalid', (raw) => {
    expect(emailProblem(raw)).toBe('invalid');
  });

  it('an ordinary address (with surrounding spaces) is fine', () => {
    expect(emailProblem(' Ada.Lovelace+test@example.co.uk ')).toBeNull();
    expect(EMAIL_MESSAGES.invalid).toEqual({ title: 'Invalid email', message: 'Please enter a valid email address.' });
  });
});
