/**
 * The e-mail field's error when the address already has an account (409 from registration, usability audit
 * November 2026): EMAIL_TAKEN_MESSAGE from api/contracts/auth-rules.ts (the API's own field message), with
 * 'log in' linked to /login and 'reset your password' to /forgot-password. Rendered in place of <Field>'s plain
 * error, with the same id (`${id}-error`), so the input's aria-describedby reads it.
 */
import { EMAIL_TAKEN_MESSAGE } from '#contracts/auth-rules.ts';

export { EMAIL_TAKEN_MESSAGE };

const LINKS: Record<string, string> = { 'log in': '/login', 'reset your password': '/forgot-password' };

/** The message with its two links; `id` is the field's id. */
export function EmailTakenError({ id, login = '/login' }: { id: string; login?: string }) {
  const parts = EMAIL_TAKEN_MESSAGE.split(/(log in|reset your password)/);
  return (
    <p id={`${id}-error`} className="field-error">
      {parts.map((part, i) => (LINKS[part]
        ? <a key={i} href={part === 'log in' ? login : LINKS[part]} className="font-semibold underline">{part}</a>
        : part))}
    </p>
  );
}
