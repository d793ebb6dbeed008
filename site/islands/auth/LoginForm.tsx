/**
 * Login form (spec §2 Login, §5, §8): email, password, optional rememberMe. Success → the same-site `redirect`
 * query parameter if any, else /dashboard/admin for admins or /dashboard/student, with the 'Login successful'
 * toast; failure → 'Login failed' / 'Invalid email or password'. After many failed logins from one network or for one
 * account the API asks for a proof-of-work: it is solved in the browser (solver loaded only then) while the form says
 * 'Checking your connection… this takes a few seconds.', and the login is sent again. Used by /login and /auth.
 * During that wait (several seconds; accessibility audit F5, WCAG 2.4.3, 4.1.3) the Log in button is aria-disabled,
 * not disabled, so the focus stays on it, and a second Enter or tap does nothing; the form's one status region is
 * there from the start and only its text changes (so it is announced), and it is scrolled into view (at 200 % text
 * on a phone it was below the fold).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { LoginSchema } from '#contracts/sign-in.ts';
import { login } from '../../stores/session.ts';
import { flashToast, toast } from '../../stores/toasts.ts';
import { ApiError } from '../../lib/api-client.ts';
import { withProofOfWork } from '../../lib/proof-of-work.ts';
import { Field, fieldProps } from '../ui/Field.tsx';
import { destinationAfterLogin } from './safe-redirect.ts';
import { typedValues } from '../ui/typed-values.ts';
import { useSignedInRedirect } from './use-signed-in-redirect.ts';
import { lazyZodResolver } from '../ui/lazy-resolver.ts';

const WRONG = 'Invalid email or password';
/** Shown while the browser solves the proof-of-work the API asked for. */
const CHECKING = 'Checking your connection… this takes a few seconds.';
type Input = z.input<typeof LoginSchema>;
type Output = z.output<typeof LoginSchema>;
/** The contract's LoginSchema, loaded when the form is first focused (issue #17). */
const validation = lazyZodResolver<Input, Output>(() => import('#contracts/sign-in.ts').then((m) => m.LoginSchema));

export default function LoginForm({ idPrefix = 'login' }: { idPrefix?: string }) {
  const { register, handleSubmit, setFocus, formState: { errors, isSubmitting } } = useForm<Input, unknown, Output>({
    // What was typed before hydration is kept (issue #14 point 12).
    resolver: validation.resolver, defaultValues: typedValues({ email: '', password: '', rememberMe: false }, (n) => `${idPrefix}-${n}`),
  });
  const busy = useRef(false);
  useSignedInRedirect();
  const [leaving, setLeaving] = useState(false);
  // The browser is solving the proof-of-work the API asked for.
  const [checking, setChecking] = useState(false);
  const status = useRef<HTMLParagraphElement>(null);
  useEffect(() => { if (checking) status.current?.scrollIntoView({ block: 'nearest' }); }, [checking]);
  // Signed in and leaving: the form stays busy until the next page.
  const signedIn = useRef(false);
  // A failed log-in stays on the form (the toast goes after 5 s), marks both fields and focuses the e-mail.
  const [failed, setFailed] = useState<string | null>(null);
  const id = (n: string) => `${idPrefix}-${n}`;
  /** After a refused log-in, both fields are invalid and described by the message (a field's own error first). */
  const invalid = (error?: string) => (failed === WRONG && !error ? { 'aria-invalid': true, 'aria-describedby': id('failed') } as const : {});

  const onSubmit = async (v: Output) => {
    setFailed(null);
    try {
      // Past the limits on failed logins the API asks for a proof-of-work instead of refusing (audit L finding B):
      // the solver is loaded only then, and a short line says why the wait.
      const user = await withProofOfWork((altcha) => login(v.email, v.password, v.rememberMe, altcha), () => setChecking(true));
      const redirect = new URLSearchParams(window.location.search).get('redirect');
      signedIn.current = true;
      setLeaving(true);
      flashToast({ title: 'Login successful', description: `Welcome back, ${user.firstName}.`, variant: 'success' });
      window.location.assign(destinationAfterLogin(user.role, redirect));
    } catch (e) {
      setChecking(false);
      const description = e instanceof ApiError
        ? (e.status === 429 ? e.userMessage : e.status >= 500 ? 'Something went wrong. Please try again.' : WRONG)
        : e instanceof TypeError ? 'Could not reach the server. Check your connection and try again.'
        : e instanceof Error ? e.message : 'Unknown error during login';
      toast({ title: 'Login failed', description, variant: 'destructive' });
      setFailed(description);
      setFocus('email');
    }
  };

  /** One log-in at a time, from the submit event on (validation included): a second Enter or tap is ignored. */
  const submit = (e: FormEvent<HTMLFormElement>) => {
    if (busy.current) { e.preventDefault(); return; }
    busy.current = true;
    void handleSubmit(onSubmit)(e).finally(() => { if (!signedIn.current) busy.current = false; });
  };

  return (
    <form method="post" noValidate onSubmit={submit} onFocusCapture={validation.preload} className="space-y-4" aria-label="Log in">
      <Field id={id('email')} label="Email" error={errors.email?.message}>
        <input {...fieldProps(id('email'), errors.email?.message)} {...invalid(errors.email?.message)} {...register('email')} type="email" autoComplete="username" inputMode="email" className="input" />
      </Field>
      <Field id={id('password')} label="Password" error={errors.password?.message}>
        <input {...fieldProps(id('password'), errors.password?.message)} {...invalid(errors.password?.message)} {...register('password')} type="password" autoComplete="current-password" className="input" />
      </Field>
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <label className="flex min-h-11 items-center gap-2 py-2 text-sm">
          <input type="checkbox" id={id('rememberMe')} {...register('rememberMe')} className="h-5 w-5 accent-brand-700" />
          Remember me
        </label>
        <a href="/forgot-password" className="-my-1 inline-block py-1 text-sm font-medium text-brand-700 underline dark:text-brand-100">Forgot password?</a>
      </div>
      {/* Always here, empty until needed: a live region created with its text may not be announced. */}
      <p ref={status} role="status" className={checking ? 'text-sm muted' : 'sr-only'}>{checking ? CHECKING : ''}</p>
      {failed && <p id={id('failed')} role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-700 dark:bg-red-950 dark:text-red-200">{failed}</p>}
      {/* Enabled before hydration: the pages load this form client:interact, which holds a submit until it runs.
          aria-disabled, not disabled, while busy: a disabled button drops the focus to the page (WCAG 2.4.3). */}
      <button type="submit" className="btn-primary w-full aria-disabled:cursor-not-allowed aria-disabled:opacity-60" aria-disabled={isSubmitting || leaving || undefined} aria-busy={isSubmitting || leaving || undefined}>
        {isSubmitting || leaving ? 'Logging in...' : 'Log in'}
      </button>
    </form>
  );
}
