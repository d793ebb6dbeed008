/**
 * $session (spec §4 Auth state): { user, isLoading, error }. Starts loading; `loadSession()` runs the
 * current-user check once per page load; a failed check means logged out with no error.
 * Actions: loadSession, login, logout, register, setUser.
 */
import { map } from 'nanostores';
import { api, ApiError, TOKEN_KEY } from '../lib/api-client.ts';
import type { PublicUser } from '../../api/contracts/auth.ts';

export interface SessionState { user: PublicUser | null; isLoading: boolean; error: string | null }

export const $session = map<SessionState>({ user: null, isLoading: true, error: null });

let loading: Promise<PublicUser | null> | null = null;

const HINT_COOKIE = 'college.signed_in';

function mayBeSignedIn(): boolean {
  if (document.cookie.split('; ').some((c) => c === `${HINT_COOKIE}=1`)) return true;
  try { return Boolean(localStorage.getItem(TOKEN_KEY)); } catch { return false; }
}

function forgetSignIn(): void {
  document.cookie = `${HINT_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
  try { localStorage.removeItem(TOKEN_KEY); } catch { /* ignore */ }
}

/**
 * Once per page load; later calls share the first promise. Every sign-in sets the readable
 * 'college.signed_in' hint cookie (and the islands store a token), so a browser with neither is a
 * visitor: no request is made, sparing anonymous visitors a round trip and a 401 on every page.
 * A stale hint or token is dropped so the next page skips the check too.
 */
export function loadSession(): Promise<PublicUser | null> {
  if (!loading && !mayBeSignedIn()) {
    $session.set({ user: null, isLoading: false, error: null });
    loading = Promise.resolve(null);
  }
  loading ??= api<{ user: PublicUser }>('/api/auth/me')
    .then((r) => { $session.set({ user: r.user, isLoading: false, error: null }); return r.user; })
    .catch(() => {
      forgetSignIn();
      $session.set({ user: null, isLoading: false, error: null });
      return null;
    });
  return loading;
}

export function setUser(user: PublicUser | null): void {
  $session.set({ user, isLoading: false, error: null });
  loading = Promise.resolve(user);
}

/** Logs in; stores the bearer token. Throws ApiError (message for the toast) on failure. */
export async function login(email: string, password: string, rememberMe = false): Promise<PublicUser> {
  $session.setKey('isLoading', true);
  try {
    const r = await api<{ user?: PublicUser; token?: string }>('/api/colfront/auth/login', { method: 'POST', json: { email, password, rememberMe } });
    if (!r.user) throw new Error('Login successful but user data not returned');
    if (r.token) try { localStorage.setItem(TOKEN_KEY, r.token); } catch { /* private mode */ }
    setUser(r.user);
    return r.user;
  } catch (e) {
    const message = e instanceof ApiError ? e.userMessage : e instanceof Error ? e.message : 'Unknown error during login';
    $session.set({ user: null, isLoading: false, error: message });
    throw e;
  }
}

/** Logs out; clears the user and the stored token. A failure is logged only (spec §8). */
export async function logout(): Promise<void> {
  try { await api('/api/colfront/auth/logout', { method: 'POST' }); }
  catch (e) { console.error('Unknown error during logout', e); }
  try { localStorage.removeItem(TOKEN_KEY); } catch { /* ignore */ }
  setUser(null);
}

/** Stores the user and token a registration returned (spec §4: sets the user if returned, else null). */
export function acceptRegistration(r: { user?: PublicUser | null; token?: string }): void {
  if (r.token) try { localStorage.setItem(TOKEN_KEY, r.token); } catch { /* ignore */ }
  setUser(r.user ?? null);
}
