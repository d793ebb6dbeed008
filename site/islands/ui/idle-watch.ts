/**
 * "Are you still there?" before the idle log-out of an admin or a signed-in student (WCAG 2.2.1 Timing Adjustable,
 * Level A: warn before a time limit ends and let the person extend it with a simple action, with at least 20 seconds to
 * do so). Started by AdminGuard (admin pages) and by use-session.ts for a student (dashboard, My Applications, the
 * wizard, an application, profile). A login ends after its idle limit without activity (api/src/auth/session.ts
 * sessionTimeouts: 30 minutes for an admin, 2 hours for a student; polls of an unattended tab do not count). The limit is not copied here: every /api answer that went
 * through that check says how long the login has left and its whole limit in a `Server-Timing` header
 * (api/contracts/session-idle.ts), which the page reads from its own requests through the Resource Timing API
 * (PerformanceResourceTiming.serverTiming; no request of its own). The latest deadline is shared with the browser's
 * other tabs through localStorage (IDLE_DEADLINE_KEY, `storage` events), so work in one admin tab keeps the others
 * from warning. WARN_BEFORE_MS before it, IdleWarning.tsx (Radix AlertDialog, loaded only then) asks; at the deadline
 * the login is ended and "Your session has ended" (ui/SignInAgain.tsx, the idle log-out's dialog) is shown.
 * Browsers without serverTiming (Safari < 16.4, Chrome < 65) get no warning, as before.
 */
import { IDLE_LEFT_METRIC, IDLE_LIMIT_METRIC } from '#contracts/session-idle.ts';

/** How long before the idle deadline the warning shows, in ms (2 minutes; WCAG 2.2.1 asks for at least 20 s). */
export const WARN_BEFORE_MS = 120_000;
/** localStorage key of the latest known deadline, JSON IdleDeadline: shared by the browser's tabs. */
export const IDLE_DEADLINE_KEY = 'college.idle-deadline';
/**
 * Taken off every deadline the page works out, in ms: the server's clock starts when the request arrives, the page's
 * estimate from when it was sent, and observer callbacks come a little after the answer.
 */
export const SAFETY_MS = 1000;

/** Whose page it is: the warning's sentence (IdleWarning.tsx idleSentence) names the rule for admins or speaks to a student. */
export type IdleRole = 'admin' | 'student';

/** When the login ends if nothing more is sent (`at`, ms since the epoch, this browser's clock) and its idle limit (ms). */
export interface IdleDeadline { at: number; limit: number }

/** The parts of a PerformanceResourceTiming entry read here. */
export interface TimedEntry { startTime: number; duration: number; serverTiming?: readonly { name: string; duration: number }[] }

/**
 * The deadline a request's answer reports (its Server-Timing `idle` and `idle-limit` metrics), or null for an answer
 * without them (anonymous, a public cached answer, another origin). `age` is how long ago, in ms, the request was sent
 * (SAFETY_MS is taken off too); `now` is Date.now().
 */
export function deadlineOf(entry: TimedEntry, age: number, now: number): IdleDeadline | null {
  let left: number | undefined;
  let limit: number | undefined;
  for (const m of entry.serverTiming ?? []) {
    if (m.name === IDLE_LEFT_METRIC) left = m.duration;
    else if (m.name === IDLE_LIMIT_METRIC) limit = m.duration;
  }
  if (left === undefined || !limit) return null;
  return { at: now - Math.max(0, age) + left - SAFETY_MS, limit };
}

/** What the page does when the warning is due, when the deadline moved past the warning, and at the deadline. */
export interface IdleHandlers { warn(d: IdleDeadline): void; extended(d: IdleDeadline): void; expire(): void }

/** The idle clock of a page: `see` a deadline, `current` (null: none known), `check` now (a tab shown again), `stop`. */
export interface IdleClock { see(d: IdleDeadline): void; current(): IdleDeadline | null; check(): void; stop(): void }

/**
 * The timer logic: keeps the latest deadline seen (a later one wins; one already past when seen is ignored, so a
 * stored deadline of an older login never logs anyone out), calls `warn` once WARN_BEFORE_MS before it, `extended`
 * when a deadline beyond the warning arrives while warned (a request in this or another tab), and `expire` at it,
 * then forgets it. Timers are setTimeout; a late timer (a hidden tab) acts on the time it fires. `now`: Date.now.
 */
export function idleClock(h: IdleHandlers, now: () => number = () => Date.now()): IdleClock {
  let current: IdleDeadline | null = null;
  let warned = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const check = (): void => {
    clearTimeout(timer);
    if (!current) return;
    const left = current.at - now();
    if (left <= 0) { current = null; warned = false; h.expire(); return; }
    if (left > WARN_BEFORE_MS) { timer = setTimeout(check, left - WARN_BEFORE_MS); return; }
    timer = setTimeout(check, left);
    if (!warned) { warned = true; h.warn(current); }
  };
  return {
    see(d) {
      if (!(d.at > now()) || (current && d.at <= current.at)) return;
      current = d;
      if (warned && d.at - now() > WARN_BEFORE_MS) { warned = false; h.extended(d); }
      check();
    },
    current: () => current,
    check,
    stop() { clearTimeout(timer); current = null; },
  };
}

/** The stored deadline of IDLE_DEADLINE_KEY's JSON `text`, or null. */
function parse(text: string | null): IdleDeadline | null {
  try {
    const d = JSON.parse(text ?? 'null') as IdleDeadline | null;
    return d && typeof d.at === 'number' && typeof d.limit === 'number' ? d : null;
  } catch { return null; }
}

/** True while this browser holds a sign-in (the readable signed-in hint cookie or a stored token; stores/session.ts). */
function signedInHere(): boolean {
  if (document.cookie.split('; ').indexOf('college.signed_in=1') >= 0) return true;
  try { return Boolean(localStorage.getItem('authToken')); } catch { return false; }
}

let note: ((d: IdleDeadline) => void) | null = null;
/** Tells the page's idle clock (and the other tabs) of deadline `d`: "Stay logged in"'s answer. No-op when not watching. */
export function noteDeadline(d: IdleDeadline): void { note?.(d); }

let users = 0;
let stopShared: (() => void) | null = null;

/**
 * Starts watching this page's requests for the idle deadline of a `role`'s login (see the module comment; 'admin'
 * unless said); returns the call that stops. One watcher per page: islands that each call it share the first one,
 * which stops when the last of them does. Does nothing where PerformanceObserver or serverTiming is missing. Answers
 * already in the page's buffer are dated from performance.now(); later ones from their own duration, so a test's fake
 * clock (Playwright's page.clock) that jumps ahead still dates them right.
 */
export function watchIdle(role: IdleRole = 'admin'): () => void {
  if (typeof PerformanceObserver === 'undefined' || typeof PerformanceResourceTiming === 'undefined' || !('serverTiming' in PerformanceResourceTiming.prototype)) return () => {};
  users++;
  stopShared ??= start(role);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    if (--users === 0) { stopShared?.(); stopShared = null; }
  };
}

/** watchIdle's one watcher of the page. */
function start(role: IdleRole): () => void {
  let ui: Promise<typeof import('./IdleWarning.tsx')> | null = null;
  const load = () => (ui ??= import('./IdleWarning.tsx'));
  const clock = idleClock({
    warn: (d) => { if (signedInHere()) void load().then((m) => m.showIdleWarning(d, role)); },
    extended: () => { void ui?.then((m) => m.hideIdleWarning()); },
    expire: () => { void (signedInHere() ? load().then((m) => m.idleLoggedOut()) : ui?.then((m) => m.hideIdleWarning())); },
  });
  const seen = (d: IdleDeadline | null, share = true): void => {
    if (!d) return;
    clock.see(d);
    if (!share) return;
    try {
      const stored = parse(localStorage.getItem(IDLE_DEADLINE_KEY));
      if (!stored || stored.at < d.at) localStorage.setItem(IDLE_DEADLINE_KEY, JSON.stringify(d));
    } catch { /* storage unavailable: this tab only */ }
  };
  note = seen;
  const observer = new PerformanceObserver((list) => {
    const now = Date.now();
    for (const e of list.getEntries()) seen(deadlineOf(e as PerformanceResourceTiming, e.duration, now));
  });
  observer.observe({ type: 'resource' });
  const now = Date.now();
  const at = performance.now();
  for (const e of performance.getEntriesByType('resource')) seen(deadlineOf(e as PerformanceResourceTiming, at - e.startTime, now));
  try { seen(parse(localStorage.getItem(IDLE_DEADLINE_KEY)), false); } catch { /* storage unavailable */ }
  const onStorage = (e: StorageEvent): void => { if (e.key === IDLE_DEADLINE_KEY) seen(parse(e.newValue), false); };
  const onShown = (): void => { if (document.visibilityState === 'visible') clock.check(); };
  addEventListener('storage', onStorage);
  document.addEventListener('visibilitychange', onShown);
  return () => {
    observer.disconnect();
    removeEventListener('storage', onStorage);
    document.removeEventListener('visibilitychange', onShown);
    clock.stop();
    if (note === seen) note = null;
  };
}
