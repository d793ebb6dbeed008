/**
 * /verify-email: confirms the e-mail address with the token from the mailed link (fragment `#token=`, or
 * `?token=`), removes it from the address bar, and says whether it worked (issue #12 finding 1). No sign-in
 * needed: the link may be opened on another device.
 */
import { useEffect, useState } from 'react';
import { api, ApiError } from '../../lib/api-client.ts';

type State = { kind: 'working' } | { kind: 'done'; message: string } | { kind: 'failed'; message: string };
const INVALID = 'This verification link is invalid or has expired';

function readToken(): string {
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get('token');
  const fromQuery = new URLSearchParams(window.location.search).get('token');
  return (fromHash || fromQuery || '').trim();
}

export default function VerifyEmail() {
  const [state, setState] = useState<State>({ kind: 'working' });
  useEffect(() => {
    const token = readToken();
    if (token) window.history.replaceState(null, '', window.location.pathname); // keep the token out of history
    if (!token) { setState({ kind: 'failed', message: INVALID }); return; }
    api<{ message: string }>('/api/auth/verify-email', { method: 'POST', json: { token } })
      .then((r) => setState({ kind: 'done', message: r.message }))
      .catch((e) => setState({ kind: 'failed', message: e instanceof ApiError && e.status === 400 ? INVALID : e instanceof ApiError ? e.userMessage : 'Could not reach the server. Please try again.' }));
  }, []);
  if (state.kind === 'working') return <p role="status" aria-live="polite">Checking your link…</p>;
  return (
    <div role={state.kind === 'failed' ? 'alert' : 'status'}>
      <p className={state.kind === 'failed' ? 'text-red-700 dark:text-red-300' : ''}>{state.message}</p>
      <p className="mt-4 text-sm muted">
        {state.kind === 'failed' ? 'Log in and use "Resend" on your dashboard to get a new link.' : 'You can close this page or go to your dashboard.'}
      </p>
      <a href="/dashboard/student" className="btn-primary mt-4 inline-block">Go to your dashboard</a>
    </div>
  );
}
