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
  const [mode, setMode] = useState<'simple' | 'full'>('simple');
  const [login, setLogin] = useState('/login');
  useSignedInRedirect();
  useEffect(() => { setLogin(withRedirect('/login')); }, []);
  useEffect(() => {
    if (allowFull && new URLSearchParams(window.location.search).get('mode') === 'full') setMode('full');
  }, [allowFull]);

  if (mode === 'full') {
    return (
      <div className="mx-auto w-full max-w-3xl">
        <Suspense fallback={<p role="status" className="card p-6 muted">Loading the registration form…</p>}><RegisterWizard /></Suspense>
        <p className="mt-6 text-center text-sm">Prefer a quick start? <a href="/register" className="font-semibold text-brand-700 underline dark:text-brand-100">Use the short form</a> · Already have an account? <a href={login} className="font-semibold text-brand-700 underline dark:text-brand-100">Log in</a></p>
      </div>
    );
  }
  // The short form is pre-rendered, so it can be filled in before its JavaScript loads (client:interact, issue #17).
  // With ?mode=full, register.astro marks <html> before the form is painted: the short form stays hidden and a
  // loading line shows until the wizard replaces them, so nothing is typed into the wrong form (issue #14 point 12).
  return (
    <>
    <p role="status" className="card mx-auto hidden w-full max-w-3xl p-6 muted [html[data-register-mode=full]_&]:block">Loading the registration form…</p>
    <div className="card mx-auto w-full max-w-xl p-6 sm:p-8 [html[data-register-mode=full]_&]:hidden">
      <h1 className="text-2xl font-bold">Create your account</h1>
      <p className="mt-1 text-sm muted">Register to apply for a course and follow your application online.</p>
      <div className="mt-6"><SimpleRegisterForm /></div>
      <p className="mt-6 text-sm">Already have an account? <a href={login} className="font-semibold text-brand-700 underline dark:text-brand-100">Log in</a></p>
      <p className="mt-2 text-sm">Want to give all your details now? <a href="/register?mode=full" className="font-semibold text-brand-700 underline dark:text-brand-100">Use the full student registration</a></p>
    </div>
    </>
  );
}
