/**
 * "Your session has ended": logging in again in place, over unsaved work (issue #16, no lost work). A login ends
 * after a while without a request (30 minutes for admins, 2 hours for students: api/src/auth/session.ts idleFor,
 * ASVS 5.0 V7.3.1), and typing a course description, status notes or an application makes no request. When a
 * change then answers 401, save-api.ts asks here: a dialog over the page with the same account's e-mail (read-only:
 * the work belongs to that login) and a password field. A good password logs in (requestLogin in stores/session.ts,
 * the log-in page's own call: a new session and token) and the change is sent again; Cancel leaves the form as
 * it is (so does the browser's Back). The password is checked with the API's LoginSchema first (spec §5 Login). The page's session store is
 * only updated on success, so a wrong password never sends the page to the log-in page (admin/use-admin.ts, the
 * account pages' guards). Past the limits on failed logins the API asks for a proof-of-work (429 challenge_required,
 * api/src/features/auth/login-throttle.ts): as on the log-in page, the dialog says 'Checking your connection… this
 * takes a few seconds.', loads the solver only then (lib/proof-of-work.ts), and logs in (security audit F4).
 * Why the login ended (phone audit 2026-11-28: the idle text showed seconds after a log-out in another tab): when this
 * browser has logged out — neither the signed-in hint cookie nor a stored token is left (the test of stores/session.ts
 * mayBeSignedIn; a log-out clears both, for every tab: api clearSessionCookies, forgetThisDevice) — the text says 'You
 * logged out in another tab or window.'; otherwise (the server ended the login) the idle log-out's.
 */
import { useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import * as Dialog from '@radix-ui/react-dialog';
import type { PublicUser } from '#contracts/auth.ts';
import { LoginSchema } from '#contracts/sign-in.ts';
import { ApiError, storedToken } from '../../lib/api-client.ts';
import { withProofOfWork } from '../../lib/proof-of-work.ts';
import { $session, requestLogin, setUser } from '../../stores/session.ts';
import { Field, fieldProps } from './Field.tsx';
import { useBackCloses } from './use-back-closes.ts';
import { BusyButton, unlessBusy } from './BusyButton.tsx';

/** Why the dialog asks, when it is not the idle log-out: its title and the text under it. */
export interface SignInReason { title: string; description: string }

let pending: Promise<boolean> | null = null;
/** Shown while the browser solves the proof-of-work the API asked for (the log-in page's own words). */
const CHECKING = 'Checking your connection… this takes a few seconds.';
/** The text under "Your session has ended": why (a log-out on this browser, or the idle one), and that nothing is lost. */
const KEPT = 'Log in again and your changes will be saved: nothing you typed is lost.';
const LOGGED_OUT_HERE = `You logged out in another tab or window. ${KEPT}`;
/** The idle log-out's text under "Your session has ended" (also ui/IdleWarning.tsx, when the idle warning ran out). */
export const IDLE = `For your privacy, you are logged out after a while without activity. ${KEPT}`;
/**
 * True while this browser still holds a sign-in: the 'college.signed_in' hint cookie or a stored token (as
 * stores/session.ts mayBeSignedIn, read here so the session store's chunk, on every account page, gains no export).
 */
const signedInHere = (): boolean => document.cookie.split('; ').includes('college.signed_in=1') || Boolean(storedToken());

/**
 * Shows the dialog (once, however many saves are waiting) and resolves true once the person is logged in again
 * (the e-mail is the page's user's and cannot be changed), false if they cancel or the page knows no account to log in as.
 * `reason`: a title and text instead of "Your session has ended" and why (signedInHere: the idle log-out, or a log-out in another tab) (say, another account is
 * logged in on this browser, so logging in here logs it out); the call that opens the dialog decides, later ones
 * share it as it is.
 */
export function signInAgain(reason?: SignInReason): Promise<boolean> {
  const user = $session.get().user;
  if (!user) return Promise.resolve(false);
  pending ??= new Promise<boolean>((resolve) => {
    const host = document.body.appendChild(document.createElement('div'));
    const root = createRoot(host);
    const done = (ok: boolean) => { root.unmount(); host.remove(); pending = null; resolve(ok); };
    root.render(<SignInAgainDialog user={user} reason={reason ?? { title: 'Your session has ended', description: signedInHere() ? IDLE : LOGGED_OUT_HERE }} onDone={done} />);
  });
  return pending;
}

function SignInAgainDialog({ user, reason, onDone }: { user: PublicUser; reason: SignInReason; onDone: (ok: boolean) => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [checking, setChecking] = useState(false);
  useBackCloses(true, () => { onDone(false); return true; });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const checked = LoginSchema.safeParse({ email: user.email, password });
    if (!checked.success) { setError(checked.error.issues[0]?.message); document.getElementById('again-password')?.focus(); return; }
    setBusy(true);
    try {
      setUser(await withProofOfWork((altcha) => requestLogin(user.email, password, false, altcha), () => setChecking(true)));
      onDone(true);
    } catch (err) {
      setError(err instanceof ApiError ? err.userMessage
        : err instanceof Error && !(err instanceof TypeError) ? err.message
        : 'Could not reach the server. Please check your connection and try again.');
      document.getElementById('again-password')?.focus();
    } finally { setBusy(false); setChecking(false); }
  };
  return (
    <Dialog.Root open onOpenChange={(o) => { if (!o) onDone(false); }}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[60] bg-black/50" />
        <Dialog.Content onOpenAutoFocus={(e) => { e.preventDefault(); document.getElementById('again-password')?.focus(); }} className="fixed left-1/2 top-1/2 z-[60] max-h-[calc(100dvh-1rem)] w-[95vw] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-6 shadow-xl dark:bg-slate-900">
          <Dialog.Title className="text-lg font-bold">{reason.title}</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm">{reason.description}</Dialog.Description>
          <form noValidate onSubmit={unlessBusy(busy, submit)} className="mt-4 space-y-4">
            <Field id="again-email" label="Email"><input className="input" id="again-email" type="email" value={user.email} readOnly autoComplete="username" /></Field>
            <Field id="again-password" label="Password" error={error}>
              <input className="input" type="password" autoComplete="current-password" {...fieldProps('again-password', error)}
                value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
            </Field>
            {checking && <p role="status" className="text-sm muted">{CHECKING}</p>}
            <div className="flex flex-wrap justify-end gap-2">
              <Dialog.Close className="btn-secondary" disabled={busy}>Cancel</Dialog.Close>
              <BusyButton type="submit" className="btn-primary" busy={busy}>{busy ? 'Logging in…' : 'Log in and save'}</BusyButton>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
