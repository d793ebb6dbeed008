/**
 * External login (spec §4 External login): its own state — email, password, isLoading and the external
 * user — separate from the portal session. Runs the health check on start (status OK = available).
 * Failures show the §8 alert 'External Login Failed'; an unreachable system shows
 * 'Could not connect to external API'. On success goes to ?redirect= (admin pages only) or /admin/branches.
 * Before hydration (phone audit, 4× CPU: 2.4 s) the server-rendered Connect button is disabled and reads 'Loading…':
 * the form has no action, so a native submit was a GET to this page that wiped what was typed and dropped ?redirect=
 * (and would have put the credentials in the address had the inputs had names; they have none, on purpose). A
 * disabled default button also blocks the implicit submission of Enter in a field. What was typed before hydration
 * is kept (typedValues).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ExternalLoginSchema, type ExternalUser } from '#contracts/external.ts';
import { api, ApiError } from '../../lib/api-client.ts';
import { Field, fieldProps } from '../ui/Field.tsx';
import { isPortalLoggedOut, safeRedirect } from './external-client.ts';
import { BusyButton } from '../ui/BusyButton.tsx';
import { useHydrated } from '../auth/form-helpers.ts';
import { typedValues } from '../ui/typed-values.ts';

type Health = 'checking' | 'ok' | 'down';
const CONNECT_FAILED = 'Could not connect to external API';

export default function ExternalLogin() {
  // What was typed into the server-rendered inputs before hydration stays (issue #14 point 12).
  const [typed] = useState(() => typedValues({ email: '', password: '' }, (n) => `external-${n}`));
  const [email, setEmail] = useState(typed.email);
  const [password, setPassword] = useState(typed.password);
  const hydrated = useHydrated();
  const [isLoading, setIsLoading] = useState(false);
  const [externalUser, setExternalUser] = useState<ExternalUser | null>(null);
  const [health, setHealth] = useState<Health>('checking');
  const [driver, setDriver] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});
  const [portalGone, setPortalGone] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const redirect = useRef('/admin/branches');

  const checkHealth = async () => {
    setHealth('checking');
    try {
      const h = await api<{ status: string; driver?: string }>('/api/external/health');
      setHealth(h.status === 'OK' ? 'ok' : 'down');
      setDriver(h.driver ?? null);
    } catch (e) {
      if (isPortalLoggedOut(e)) setPortalGone(true);
      else console.warn(e instanceof Error && e.message ? e.message : 'Unknown error checking API health');
      setHealth('down');
    }
  };

  useEffect(() => {
    redirect.current = safeRedirect(new URLSearchParams(window.location.search).get('redirect'));
    void checkHealth();
    api<{ user: ExternalUser }>('/api/external/me').then((r) => setExternalUser(r.user)).catch((e) => {
      if (isPortalLoggedOut(e)) setPortalGone(true);
    });
  }, []);

  useEffect(() => { if (failure) alertRef.current?.focus(); }, [failure]);

  const onSubmit = async (ev: FormEvent) => {
    ev.preventDefault();
    if (isLoading) return;
    setFailure(null);
    const parsed = ExternalLoginSchema.safeParse({ email, password });
    if (!parsed.success) {
      const errs: { email?: string; password?: string } = {};
      for (const i of parsed.error.issues) { const k = i.path[0] as 'email' | 'password'; errs[k] ??= i.message; }
      setFieldErrors(errs);
      (errs.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    setFieldErrors({});
    setIsLoading(true);
    try {
      const r = await api<{ user: ExternalUser }>('/api/external/login', { method: 'POST', json: parsed.data });
      setExternalUser(r.user);
      setPassword('');
      window.location.assign(redirect.current);
    } catch (e) {
      if (isPortalLoggedOut(e)) setPortalGone(true);
      const status = e instanceof ApiError ? e.status : 0;
      setFailure(status === 0 || status === 502 || status === 504 ? CONNECT_FAILED : e instanceof ApiError ? e.userMessage : CONNECT_FAILED);
      if (status === 0 || status >= 500) setHealth('down');
      setIsLoading(false);
    }
  };

  const disconnect = async () => {
    setIsLoading(true);
    try { await api('/api/external/logout', { method: 'POST' }); } catch { /* gone either way */ }
    setExternalUser(null);
    setIsLoading(false);
  };

  if (portalGone) {
    return (
      <div role="alert" className="card p-6">
        <p className="font-semibold">Your portal session has ended.</p>
        <p className="muted mt-1">Log in to the portal again, then connect to the external system.</p>
        <a className="btn-primary mt-4" href={`/login?redirect=${encodeURIComponent(window.location.pathname + window.location.search)}`}>Log in</a>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-md">
      <div className="mb-4 flex items-center gap-2 text-sm" role="status" aria-live="polite">
        <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 rounded-full ${health === 'ok' ? 'bg-green-600' : health === 'down' ? 'bg-red-600' : 'bg-slate-400'}`} />
        <span data-testid="external-health">{health === 'ok' ? 'External system available' : health === 'down' ? 'External system unavailable' : 'Checking the external system...'}</span>
      </div>

      {health === 'down' && !failure && (
        <div role="alert" className="mb-4 rounded-md border border-red-700 bg-red-50 p-4 text-red-900 dark:bg-red-950 dark:text-red-100">
          <p className="font-semibold">{CONNECT_FAILED}</p>
          <p className="mt-1 text-sm">The administration system is not answering. The rest of the portal keeps working.</p>
          <button type="button" className="btn-secondary mt-3" onClick={checkHealth}>Check again</button>
        </div>
      )}

      {externalUser ? (
        <div className="card p-6">
          <h2 className="text-lg font-semibold">Connected</h2>
          <p className="muted mt-1">You are connected to the external system as <strong>{externalUser.name}</strong> ({externalUser.email}).</p>
          <div className="mt-4 flex flex-wrap gap-3">
            <a className="btn-primary" href={redirect.current}>Continue</a>
            <BusyButton className="btn-secondary" onClick={() => void disconnect()} busy={isLoading}>Disconnect</BusyButton>
          </div>
        </div>
      ) : (
        <form noValidate onSubmit={onSubmit} className="card space-y-4 p-6" aria-labelledby="external-login-title">
          <h2 id="external-login-title" className="text-lg font-semibold">Log in to the external system</h2>
          <p className="muted text-sm">
            {driver === 'local' ? 'Use your own portal e-mail and password to confirm it is you.' : 'Use your administration system account.'}
          </p>
          {failure && (
            <div ref={alertRef} tabIndex={-1} role="alert" className="rounded-md border border-red-700 bg-red-50 p-4 text-red-900 dark:bg-red-950 dark:text-red-100">
              <p className="font-semibold">External Login Failed</p>
              <p className="mt-1 text-sm">{failure}</p>
            </div>
          )}
          <Field id="external-email" label="Email" error={fieldErrors.email}>
            <input ref={emailRef} type="email" className="input" autoComplete="username" value={email}
              onChange={(e) => setEmail(e.target.value)} {...fieldProps('external-email', fieldErrors.email)} />
          </Field>
          <Field id="external-password" label="Password" error={fieldErrors.password}>
            <input ref={passwordRef} type="password" className="input" autoComplete="current-password" value={password}
              onChange={(e) => setPassword(e.target.value)} {...fieldProps('external-password', fieldErrors.password)} />
          </Field>
          {/* Disabled until hydrated: a native submit would lose the typing and ?redirect= (see the file comment). */}
          <BusyButton type="submit" className="btn-primary w-full" disabled={!hydrated} busy={isLoading}>{!hydrated ? 'Loading…' : isLoading ? 'Connecting...' : 'Connect'}</BusyButton>
        </form>
      )}
    </div>
  );
}
