/**
 * $session (spec §4 Auth state): { user, isLoading, error }. Starts loading; `loadSession()` runs the
 * current-user check once per page load; a failed check means logged out with no error.
 * Actions: loadSession, login, logout, register, setUser.
 */
import { map } from 'nanostores';
import { api, ApiError, READ_TIMEOUT_MS, TOKEN_KEY } from '../lib/api-client.ts';
import type { PublicUser } from '#contracts/auth.ts';
// A static import (a few hundred bytes): a lazy chunk that is not in the service worker's cache would fail to
// load exactly when it is needed, offline, and the session check would then not settle on the last-known user.
import { forgetLocalDrafts, forgetSnapshots, hasUnsentDrafts, isNetworkError, recall, remember } from '../lib/offline-snapshot.ts';
import { forgetPendingUploads } from '../lib/pending-uploads.ts';

/** `offlineSince`: set when the user is the last-known one because the server could not be reached (ISO 8601). */
export interface SessionState { user: PublicUser | null; isLoading: boolean; error: string | null; offlineSince?: string | null }

export const $session = map<SessionState>({ user: null, isLoading: true, error: null });

let loading: Promise<PublicUser | null> | null = null;

const HINT_COOKIE = 'college.signed_in';

/**
 * True when this browser may have a session: the readable 'college.signed_in' hint cookie every sign-in sets, or a
 * stored bearer token. False means a visitor, for whom reads that need a session are not worth a request.
 */
export function mayBeSignedIn(): boolean {
  if (document.cookie.split('; ').some((c) => c === `${HINT_COOKIE}=1`)) return true;
  try { return Boolean(localStorage.getItem(TOKEN_KEY)); } catch { return false; }
}

/**
 * True while this page's session check has not answered in a browser that may be signed in: the moment to start
 * reads that need the session (lib/early-reads.ts). False for a visitor, and once the user is known (a read then
 * goes out the normal way, so nothing is read twice).
 */
export function sessionCheckPending(): boolean { return $session.get().isLoading && mayBeSignedIn(); }

function forgetSignIn(): void {
  document.cookie = `${HINT_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
  try { localStorage.removeItem(TOKEN_KEY); } catch { /* ignore */ }
}

/**
 * Once per page load; later calls share the first promise. Every sign-in sets the readable
 * 'college.signed_in' hint cookie (and the islands store a token), so a browser with neither is a
 * visitor: no request is made, sparing anonymous visitors a round trip and a 401 on every page.
 * A stale hint or token (the server answered 401) is dropped so the next page skips the check too.
 * Without a connection (issue #16 point 4) — fetch failed, or no answer within READ_TIMEOUT_MS — the
 * check settles at once with this device's last-known user (`offlineSince` set) and runs again when the browser
 * is back online; it never counts as signed out and never drops the hint or the token.
 * A log-out that could not reach the server (see logout()) is sent first; meanwhile the browser counts as signed out.
 */
export function loadSession(): Promise<PublicUser | null> {
  if (!loading && logoutPending()) { forgetSignIn(); void finishLogout(); }
  if (!loading && !mayBeSignedIn()) {
    $session.set({ user: null, isLoading: false, error: null });
    loading = Promise.resolve(null);
  }
  loading ??= api<{ user: PublicUser }>('/api/auth/me', { timeoutMs: READ_TIMEOUT_MS })
    .then((r) => { $session.set({ user: r.user, isLoading: false, error: null }); rememberUser(r.user); return r.user; })
    .catch((e) => {
      if (isNetworkError(e)) {
        // Offline: keep the last-known user of this device rather than signing out; check again once online.
        addEventListener('online', () => { loading = null; void loadSession(); }, { once: true });
        const last = recall<PublicUser>('user', lastUserId());
        $session.set(last
          ? { user: last.data, isLoading: false, error: null, offlineSince: last.savedAt }
          : { user: null, isLoading: false, error: 'offline', offlineSince: null });
        return last?.data ?? null;
      }
      forgetSignIn();
      $session.set({ user: null, isLoading: false, error: null });
      return null;
    });
  return loading;
}

const LAST_USER_KEY = 'college.offline-user-id';
function lastUserId(): number { try { return Number(localStorage.getItem(LAST_USER_KEY) ?? 0); } catch { return 0; } }
function rememberUser(user: PublicUser | null): void {
  if (!user) return;
  if (lastUserId() !== user.id) { forgetSnapshots(); void forgetPendingUploads(); }
  try { localStorage.setItem(LAST_USER_KEY, String(user.id)); } catch { /* ignore */ }
  remember('user', user.id, user);
}

/**
 * True when the page shows a user who is no longer the one signed in on this device: it was kept in the browser's
 * back/forward cache and restored by Back after a log-out (or after someone else signed in). Read from this
 * device's state (the hint cookie or token, and the last-known user id that log-out clears), so it needs no request
 * and can decide before the restored page is looked at. Shared computers: the next person must not see the last
 * person's pages (POPIA s19 security safeguards; issue #16 point 4).
 */
export function shownUserIsStale(): boolean {
  return pageUserId !== 0 && (!mayBeSignedIn() || lastUserId() !== pageUserId);
}

// The last user this page has shown (0: none). Kept after a log-out on this very page, whose islands may still
// hold that user's data when Back brings the page back.
let pageUserId = 0;
$session.listen(({ user }) => { if (user) pageUserId = user.id; });

/** Sets the signed-in user (null: nobody) and remembers it as this device's last-known user. */
export function setUser(user: PublicUser | null): void {
  $session.set({ user, isLoading: false, error: null });
  rememberUser(user);
  loading = Promise.resolve(user);
}

/**
 * The log-in call alone (spec §7 POST /api/colfront/auth/login): stores the bearer token and answers the user,
 * leaving $session as it is. Throws ApiError on a refusal, Error 'Login successful but user data not returned'
 * (spec §5) without a user. Used by login() and by the in-place log-in (islands/ui/SignInAgain.tsx), which must
 * not sign the page out when a password is wrong.
 */
export async function requestLogin(email: string, password: string, rememberMe = false, altcha?: string): Promise<PublicUser> {
  const r = await api<{ user?: PublicUser; token?: string }>('/api/colfront/auth/login', { method: 'POST', json: { email, password, rememberMe, ...(altcha ? { altcha } : {}) } });
  if (!r.user) throw new Error('Login successful but user data not returned');
  if (r.token) try { localStorage.setItem(TOKEN_KEY, r.token); } catch { /* private mode */ }
  loggedInAfresh();
  return r.user;
}

/**
 * Logs in; stores the bearer token. `altcha`: a solved proof-of-work (lib/proof-of-work.ts) when the API asked for
 * one (429 challenge_required after many failed logins from a network or for an account). Throws ApiError (message
 * for the toast) on failure.
 */
export async function login(email: string, password: string, rememberMe = false, altcha?: string): Promise<PublicUser> {
  $session.setKey('isLoading', true);
  try {
    const user = await requestLogin(email, password, rememberMe, altcha);
    setUser(user);
    return user;
  } catch (e) {
    const message = e instanceof ApiError ? e.userMessage : e instanceof Error ? e.message : 'Unknown error during login';
    $session.set({ user: null, isLoading: false, error: message });
    throw e;
  }
}

const LOGOUT_PENDING_KEY = 'college.logout-pending';
function logoutPending(): boolean { try { return localStorage.getItem(LOGOUT_PENDING_KEY) === '1'; } catch { return false; } }

/** POST /api/colfront/auth/logout; true once the server has ended the session (a 401 too: it was gone already). */
async function sendLogout(): Promise<boolean> {
  try { await api('/api/colfront/auth/logout', { method: 'POST' }); return true; }
  catch (e) { console.error('Unknown error during logout', e); return e instanceof ApiError && e.status === 401; }
}

// A new sign-in replaced the session on the server (a fresh id; the old one and its token are ended there).
function loggedInAfresh(): void { try { localStorage.removeItem(LOGOUT_PENDING_KEY); } catch { /* ignore */ } }

let finishing: Promise<void> | null = null;
/** Sends a log-out that could not reach the server earlier, now or when the browser is next online; idempotent. */
function finishLogout(): Promise<void> {
  finishing ??= sendLogout().then((reached) => {
    finishing = null;
    if (reached) { try { localStorage.removeItem(LOGOUT_PENDING_KEY); } catch { /* ignore */ } }
    else addEventListener('online', () => void finishLogout(), { once: true });
  });
  return finishing;
}

/**
 * Sends a change the page still holds for the server, now; resolves true once the server has everything, false when
 * something stays on this device only. Given by every store that saves after a pause (the wizard's draft store).
 */
export type PendingSaveSender = () => Promise<boolean>;
const pendingSaveSenders = new Set<PendingSaveSender>();

/**
 * Registers `send`, which logout() runs before it ends the session; returns the call that unregisters it (a store
 * that stops). Audit, November 2026 ("no lost work"): a grade typed and then "Log out" within the draft's 1.2 s
 * pause never reached the server, and the log-out erased the only copy.
 */
export function sendBeforeLogout(send: PendingSaveSender): () => void {
  pendingSaveSenders.add(send);
  return () => { pendingSaveSenders.delete(send); };
}


/**
 * What log-out asks when a change could not be sent (no connection, a server failure, an ended login, or a
 * conflict waiting for a choice). OK logs out and erases it from this device; Cancel stays.
 */
export const UNSENT_AT_LOGOUT = 'Some changes to your application have not reached your account yet (no connection, '
  + 'or you need to log in again). If you log out now, they are deleted from this device.\n\n'
  + 'Cancel: stay logged in and keep them. OK: log out and delete them.';

/**
 * Runs every registered sender (sendBeforeLogout) at once, for at most READ_TIMEOUT_MS (a dead connection must not
 * hold the log-out), then looks at this device: true when no local draft copy of the user (`apply-draft:<id>:…`,
 * another tab's too) is marked as holding changes the server has not acknowledged (`dirty`). When such a copy is
 * there from the start, the browser's other tabs are asked at once to send theirs (a change waiting for its pause
 * there), and their answers are awaited for at most OTHER_TABS_WAIT_MS (2 s) before the copies are looked at; with
 * no BroadcastChannel (older browsers) nobody is asked, and another tab's waiting change counts as unsent.
 */
export async function sendPendingSaves(): Promise<boolean> {
  const userId = $session.get().user?.id ?? lastUserId();
  const othersSent = hasUnsentDrafts(userId)
    ? import('../lib/pending-saves-channel.ts').then((m) => m.askOtherTabsToSend(userId, () => hasUnsentDrafts(userId)), () => null)
    : null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const sent = await Promise.race([
    Promise.all(Array.from(pendingSaveSenders, (send) => send().catch(() => false))).then((all) => all.every(Boolean)),
    new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(false), READ_TIMEOUT_MS); }),
  ]);
  clearTimeout(timer);
  if (!sent) return false;
  const waitForOthers = await othersSent;
  if (waitForOthers) await waitForOthers();
  return !hasUnsentDrafts(userId);
}

/**
 * Logs out; answers false, doing nothing, when the person chose to stay. First sends every change the page still
 * holds for the server (sendPendingSaves); when one cannot be sent, `ask(UNSENT_AT_LOGOUT)` (window.confirm unless
 * given) decides: stay, with the change kept, or log out and erase it. Decision (audit, November 2026): a change is
 * never erased unsent without the person's say, and nothing of theirs is left on a possibly shared device without it
 * either (issue #16 point 4, POPIA s19). Then clears the user, the stored token, the signed-in hint, this device's
 * snapshots, unfinished uploads and local draft copies (forgetLocalDrafts: the server has them, or the person chose
 * to erase them). A failure of the log-out request is logged only (spec §8), but the log-out is not lost: without a
 * connection the server still holds the session (its cookie is HttpOnly, out of the page's reach), so the log-out is
 * remembered on this device and sent as soon as the browser is online again, on this page or the next one this
 * browser opens, before anything else asks who is signed in (shared phones: the next person must not find the last
 * one signed in; POPIA s19, ASVS 5.0 V7.4.1).
 */
export async function logout(ask: (question: string) => boolean = (q) => window.confirm(q)): Promise<boolean> {
  if (!(await sendPendingSaves()) && !ask(UNSENT_AT_LOGOUT)) return false;
  const reached = await sendLogout();
  if (!reached) {
    try { localStorage.setItem(LOGOUT_PENDING_KEY, '1'); } catch { /* ignore */ }
    forgetSignIn();
    addEventListener('online', () => void finishLogout(), { once: true });
  }
  await forgetThisDevice();
  return true;
}

/**
 * Erases what this device keeps of the signed-in user (issue #16 point 4: nothing personal stays on the device for
 * the next person): the bearer token, the last-known user id, the offline snapshots, unfinished uploads
 * (lib/pending-uploads.ts) and the local application drafts (forgetLocalDrafts; logout() sends or asks about unsent
 * changes first); the store then holds nobody.
 * Used by logout() and by the profile after "log out everywhere" or an account deletion. Resolves once the
 * unfinished uploads are erased (IndexedDB is asynchronous: navigate away only after it, or the erasure may be cut
 * off with the page).
 */
export function forgetThisDevice(): Promise<void> {
  try { localStorage.removeItem(TOKEN_KEY); localStorage.removeItem(LAST_USER_KEY); } catch { /* ignore */ }
  forgetSnapshots();
  forgetLocalDrafts();
  setUser(null);
  return forgetPendingUploads();
}

/** Stores the user and token a registration returned (spec §4: sets the user if returned, else null). */
export function acceptRegistration(r: { user?: PublicUser | null; token?: string }): void {
  if (r.token) try { localStorage.setItem(TOKEN_KEY, r.token); } catch { /* ignore */ }
  if (r.user) loggedInAfresh();
  setUser(r.user ?? null);
}
