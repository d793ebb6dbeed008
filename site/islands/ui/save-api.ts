/**
 * Changes a signed-in person makes (POST, PUT, PATCH, DELETE: an admin's saves, an application's submission, the
 * profile's details) go through `saveApi`: the same call as `api` (lib/api-client.ts; same shapes and errors),
 * except that a 401 — the login ended while they worked (30 minutes idle for admins, 2 hours for students:
 * api/src/auth/session.ts, ASVS 5.0 V7.3.1) — opens "Your session has ended" (SignInAgain.tsx, loaded only then)
 * and, once the person has logged in again as the same account, sends the change once more. Cancelled, it throws
 * the 401's ApiError as `api` would, and the form keeps what was typed (issue #16, no lost work). Reads keep
 * `api`: a page whose read answers 401 goes to the log-in page as before.
 */
import { api, ApiError } from '../../lib/api-client.ts';
import type { SignInReason } from './SignInAgain.tsx';

/**
 * Loads the "Your session has ended" dialog and shows it (SignInAgain.tsx); resolves true once the person has
 * logged in again, false if they cancelled. For callers that send without `api` (the uploads) and must retry on
 * their own after a 401. `reason` replaces the dialog's title and "logged out after a while" text (the wizard's
 * draft when another account is logged in: DRAFT_OTHER_USER_TITLE, DRAFT_OTHER_USER); the dialog is shared, so the
 * caller that opened it decides.
 */
export async function askToSignInAgain(reason?: SignInReason): Promise<boolean> {
  const { signInAgain } = await import('./SignInAgain.tsx');
  return signInAgain(reason);
}

/** `api(path, init)`, with a log-in-again and one retry on 401 (see the module comment). */
export async function saveApi<T = unknown>(path: string, init: Parameters<typeof api>[1] & { method: string }): Promise<T> {
  try {
    return await api<T>(path, init);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 401) throw e;
    if (!(await askToSignInAgain())) throw e;
    return api<T>(path, init);
  }
}
