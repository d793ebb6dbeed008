/**
 * /register: the simple form by default, the comprehensive wizard with ?mode=full (spec §2 Registration:
 * "simple or comprehensive form"). The page is static, so the mode is read after hydration.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import SimpleRegisterForm from './SimpleRegisterForm.tsx';
import { useSignedInRedirect, withRedirect } from './use-signed-in-redirect.ts';

/** The comprehensive wizard (and the zod schemas it checks each step with) loads only for ?mode=full (issue #17). */
const RegisterWizard = lazy(() => import('./RegisterWizard.tsx'));

export default function RegisterPage({ allowFull = true }: { allowFull?: boolean }) {
  const [mode, setMode] = useState<'simple' | 'full' | null>(null);
  const [login, setLogin] = useState('/login');
  useSignedInRedirect();
  useEffect(() => { setLogin(withRedirect('/login')); }, []);
  useEffect(() => {
    setMode(allowFull && new URLSearchParams(window.location.search).get('mode') === 'full' ? 'full' : 'simple');
  }, [allowFull]);

  // Which form this is is known only in the browser (?mode=full). Until then no inputs are shown, so nothing typed
  // into the wrong form, or before the island runs, can be lost (issue #14 point 12).
  // The placeholder has the short form's rows (same grid, label lines and inputs), so the page does not jump when
  // the form replaces it (issue #17: Lighthouse counted a layout shift of 0.46 here).
  if (mode === null) {
    const bar = 'animate-pulse rounded bg-slate-200 dark:bg-slate-700';
    const field = (k: string | number) => <div key={k}><div className="label" aria-hidden="true">&nbsp;</div><div className={`input ${bar}`}>&nbsp;</div></div>;
    return (
      <div className="card mx-auto w-full max-w-xl p-6 sm:p-8" role="status" aria-live="polite">
        <h1 className="text-2xl font-bold">Create your account</h1>
        <p className="mt-1 text-sm muted">Loading the registration form…</p>
        <div className="mt-6 space-y-4" aria-hidden="true">
          <div className="grid gap-4 sm:grid-cols-2">{field(0)}{field(1)}</div>
          {field(2)}
          <div className="grid gap-4 sm:grid-cols-2">{field(3)}{field(4)}</div>
          <p className="mt-1 text-xs">&nbsp;</p>
          {field(5)}
          {field(6)}
          <p className="text-sm">&nbsp;<br />&nbsp;</p>
          <div className={`btn-primary w-full ${bar}`}>&nbsp;</div>
        </div>
        <p className="mt-6 text-sm">&nbsp;</p>
        <p className="mt-2 text-sm">&nbsp;</p>
      </div>
    );
  }

  if (mode === 'full') {
    return (
      <div className="mx-auto w-full max-w-3xl">
        <Suspense fallback={<p role="status" className="card p-6 muted">Loading the registration form…</p>}><RegisterWizard /></Suspense>
        <p className="mt-6 text-center text-sm">Prefer a quick start? <a href="/register" className="font-semibold text-brand-700 underline dark:text-brand-100">Use the short form</a> · Already have an account? <a href={login} className="font-semibold text-brand-700 underline dark:text-brand-100">Log in</a></p>
      </div>
    );
  }
  return (
    <div className="card mx-auto w-full max-w-xl p-6 sm:p-8">
      <h1 className="text-2xl font-bold">Create your account</h1>
      <p className="mt-1 text-sm muted">Register to apply for a course and follow your application online.</p>
      <div className="mt-6"><SimpleRegisterForm /></div>
      <p className="mt-6 text-sm">Already have an account? <a href={login} className="font-semibold text-brand-700 underline dark:text-brand-100">Log in</a></p>
      <p className="mt-2 text-sm">Want to give all your details now? <a href="/register?mode=full" className="font-semibold text-brand-700 underline dark:text-brand-100">Use the full student registration</a></p>
    </div>
  );
}
