/**
 * Small helpers shared by the account forms: copy the server's field messages (400/409) into
 * react-hook-form and focus the first one, and turn any error into a human sentence.
 */
import { useEffect, useState } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError, RequestTimeoutError } from '../../lib/api-client.ts';

/** Sets each server field error on the form; focuses the first field that exists in `known`. Returns true if any was set. */
export function applyServerErrors<T extends FieldValues>(setError: UseFormSetError<T>, err: unknown, known: readonly string[]): boolean {
  if (!(err instanceof ApiError)) return false;
  const fields = err.fields;
  const names = known.filter((k) => fields[k]);
  names.forEach((name, i) => setError(name as Path<T>, { type: 'server', message: fields[name] }, { shouldFocus: i === 0 }));
  return names.length > 0;
}

/** The server's message for an ApiError, a plain sentence for no connection or no answer in time, else `fallback` (spec §8 'Unknown error during …'). */
export function errorText(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.status >= 500 || err.status === 0 ? 'Something went wrong. Please try again.' : err.userMessage;
  if (err instanceof RequestTimeoutError) return err.message;
  if (err instanceof TypeError) return 'Could not reach the server. Check your connection and try again.';
  return fallback;
}

/**
 * False in the pre-rendered HTML and until React has hydrated. Submit buttons stay disabled until then, so a
 * click before the JavaScript arrives cannot send the form natively (which would put a password in the URL).
 */
export function useHydrated(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => { setReady(true); }, []);
  return ready;
}
