/**
 * The idle warning's dialog (idle-watch.ts decides when; loaded only then, so the first JavaScript of admin and signed-in
 * student pages carries none of it): a Radix AlertDialog "Are you still there?" over the page, saying when the person
 * will be logged out and why (idleSentence: the limit's words come from the answer's Server-Timing `idle-limit`), with the time left (role="timer": readable, not read out every second; a polite live region says "1 minute
 * left.", "30 seconds left." and "10 seconds left." only), "Stay logged in" (focused; Escape does the same) and
 * "Log out". Staying sends the session check (GET /api/auth/me), which extends the login by its whole idle limit
 * (api/src/auth/session.ts: the last request was over a minute ago, so it is written). At the deadline the login is
 * ended on the server (POST /api/colfront/auth/logout: this browser's clock decides, so the server's, a moment later,
 * never shows a login as alive that the page says has ended) and "Your session has ended" opens, as after any idle
 * log-out (ui/SignInAgain.tsx: log in again in place, nothing typed is lost).
 */
import { useEffect, useRef, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { format as fecha } from 'fecha';
import { api, ApiError, READ_TIMEOUT_MS } from '../../lib/api-client.ts';
import { logout } from '../../stores/session.ts';
import { noteDeadline, SAFETY_MS, type IdleDeadline, type IdleRole } from './idle-watch.ts';

/** The dialog's title. */
export const IDLE_WARNING_TITLE = 'Are you still there?';

/** '1 min 05 s', '45 s': `ms` left, rounded up to the second. */
export function timeLeft(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(s / 60);
  return m > 0 ? `${m} min ${String(s % 60).padStart(2, '0')} s` : `${s} s`;
}

/** What the live region says with `ms` left: at 60, 30 and 10 seconds only, '' otherwise (WCAG 4.1.3, not every second). */
export function announcement(ms: number): string {
  const s = Math.ceil(ms / 1000);
  return s <= 10 ? '10 seconds left.' : s <= 30 ? '30 seconds left.' : s <= 60 ? '1 minute left.' : '';
}

/** A limit of `ms` in words: whole hours as '2 hours' / '1 hour', otherwise minutes ('30 minutes'), rounded. */
export function durationWords(ms: number): string {
  const min = Math.round(ms / 60_000);
  const [n, unit] = min >= 60 && min % 60 === 0 ? [min / 60, 'hour'] : [min, 'minute'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/**
 * The dialog's sentence for `role` with idle limit `limitMs` (the Server-Timing `idle-limit`; no copy of the number
 * here) and the log-out time `at` (already formatted, e.g. '14:05'): admins are told the rule for admins, students
 * what happens to them.
 */
export function idleSentence(role: IdleRole, limitMs: number, at: string): string {
  const who = role === 'admin' ? 'admins are' : 'you are';
  return `For your security, ${who} logged out after ${durationWords(limitMs)} without activity. You will be logged out at ${at} unless you stay logged in.`;
}

let host: HTMLElement | null = null;
let root: Root | null = null;

/** Shows the warning for deadline `d` to a `role` ('admin' unless said; once: a second call while it shows changes nothing). */
export function showIdleWarning(d: IdleDeadline, role: IdleRole = 'admin'): void {
  if (root) return;
  host = document.body.appendChild(document.createElement('div'));
  root = createRoot(host);
  root.render(<IdleWarningDialog deadline={d} role={role} />);
}

/** Closes the warning, if it shows (the login was extended, here or in another tab). */
export function hideIdleWarning(): void {
  root?.unmount();
  host?.remove();
  root = null;
  host = null;
}

/**
 * The deadline passed: closes the warning, ends the login on the server (errors ignored: the server ends it by itself
 * anyway), then opens "Your session has ended" with the idle log-out's text. Logging in again there reads the new
 * deadline (the session check's answer).
 */
export async function idleLoggedOut(): Promise<void> {
  hideIdleWarning();
  await api('/api/colfront/auth/logout', { method: 'POST' }).catch(() => undefined);
  const { signInAgain, IDLE } = await import('./SignInAgain.tsx');
  if (await signInAgain({ title: 'Your session has ended', description: IDLE })) {
    await api('/api/auth/me', { timeoutMs: READ_TIMEOUT_MS }).catch(() => undefined);
  }
}

function IdleWarningDialog({ deadline, role }: { deadline: IdleDeadline; role: IdleRole }) {
  const [now, setNow] = useState(() => Date.now());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const stayRef = useRef<HTMLButtonElement>(null);
  useEffect(() => { const t = setInterval(() => setNow(Date.now()), 1000); return () => clearInterval(t); }, []);
  const left = deadline.at - now;
  const at = fecha(new Date(deadline.at), 'HH:mm');
  const stay = async () => {
    if (busy) return;
    setBusy(true);
    setError('');
    const sent = Date.now();
    try {
      await api('/api/auth/me', { timeoutMs: READ_TIMEOUT_MS });
      noteDeadline({ at: sent + deadline.limit - SAFETY_MS, limit: deadline.limit });
      hideIdleWarning();
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) { void idleLoggedOut(); return; }
      setError(e instanceof ApiError ? e.userMessage : e instanceof Error ? e.message : String(e));
      setBusy(false);
      stayRef.current?.focus();
    }
  };
  const leave = async () => {
    setBusy(true);
    if (await logout()) window.location.assign('/auth');
    else setBusy(false);
  };
  return (
    <AlertDialog.Root open onOpenChange={(o) => { if (!o) void stay(); }}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-[60] bg-black/50" />
        <AlertDialog.Content data-testid="idle-warning" onOpenAutoFocus={(e) => { e.preventDefault(); stayRef.current?.focus(); }}
          className="fixed inset-0 z-[60] m-auto h-fit w-[95vw] max-w-md max-h-[calc(100dvh-1rem)] overflow-y-auto rounded-lg bg-white p-6 shadow-xl dark:bg-slate-900">
          <AlertDialog.Title className="text-lg font-bold">{IDLE_WARNING_TITLE}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2">
            {idleSentence(role, deadline.limit, at)}
          </AlertDialog.Description>
          <p role="timer" aria-atomic="true" className="mt-4 text-xl font-bold tabular-nums">Time left: {timeLeft(left)}</p>
          <p className="sr-only" aria-live="polite" aria-atomic="true">{announcement(left)}</p>
          {error && <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">{error}</p>}
          <div className="mt-6 flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-secondary" disabled={busy} onClick={() => void leave()}>Log out</button>
            <button type="button" ref={stayRef} className="btn-primary" aria-disabled={busy || undefined} onClick={() => void stay()}>
              {busy ? 'Staying logged in…' : 'Stay logged in'}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
