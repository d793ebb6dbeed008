/**
 * The admin islands' changes (POST, PUT, PATCH, DELETE) go through `adminApi`: the same call as `api`
 * (lib/api-client.ts; same shapes and errors), except that a 401 — the admin's login ended while they worked
 * (30 minutes idle, api/src/auth/session.ts) — opens "Your session has ended" (SignInAgain.tsx, loaded then) and,
 * once the admin has logged in again, sends the change once more. Cancelled, it throws the 401's ApiError as
 * `api` would, and the form keeps what was typed (issue #16, no lost work). Reads keep `api`: a page whose read
 * answers 401 goes to the log-in page as before.
 */
import { api, ApiError } from '../../lib/api-client.ts';

/** `api(path, init)`, with a log-in-again and one retry on 401 (see the module comment). */
export async function adminApi<T = unknown>(path: string, init: Parameters<typeof api>[1] & { method: string }): Promise<T> {
  try {
    return await api<T>(path, init);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 401) throw e;
    const { signInAgain } = await import('./SignInAgain.tsx');
    if (!(await signInAgain())) throw e;
    return api<T>(path, init);
  }
}
