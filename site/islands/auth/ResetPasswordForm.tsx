/**
 * /reset-password: sets a new password with the e-mailed token (read from the URL fragment `#token=`, or `?token=`,
 * then removed from the address bar). Success ends every session of the person, so this browser is logged out
 * too and goes to /login. A link the server refuses gives way to 'This reset link is invalid or has expired', which
 * then takes the focus (WCAG 2.4.3; the form's button it was on is gone).
 */
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { ResetPasswordConfirmSchema } from '#contracts/auth.ts';
import { api, ApiError, TOKEN_KEY } from '../../lib/api-client.ts';
import { setUser } from '../../stores/session.ts';
import { flashToast, toast } from '../../stores/toasts.ts';
import { Field, fieldProps } from '../ui/Field.tsx';
import { applyServerErrors, errorText } from './form-helpers.ts';
import { BusyButton } from '../ui/BusyButton.tsx';

type Values = z.input<typeof ResetPasswordConfirmSchema>;

function readToken(): string {
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get('token');
  const fromQuery = new URLSearchParams(window.location.search).get('token');
  return (fromHash || fromQuery || '').trim();
}

export default function ResetPasswordForm() {
  const [token, setToken] = useState<string | null>(null);
  const [invalid, setInvalid] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const busy = useRef(false);
  const refused = useRef<HTMLParagraphElement>(null);
  useEffect(() => { if (invalid) refused.current?.focus(); }, [invalid]);
  const { register, handleSubmit, setError, setValue, formState: { errors, isSubmitting } } = useForm<Values>({
    resolver: zodResolver(ResetPasswordConfirmSchema), defaultValues: { token: '', password: '', confirmPassword: '' },
  });

  useEffect(() => {
    const t = readToken();
    setToken(t);
    setValue('token', t);
    if (t) window.history.replaceState(null, '', window.location.pathname); // keep the token out of history and screenshots
  }, [setValue]);

  const onSubmit = async (v: Values) => {
    if (busy.current) return;
    busy.current = true;
    try {
      await api('/api/colfront/auth/reset-password/confirm', { method: 'POST', json: { ...v, token } });
      try { localStorage.removeItem(TOKEN_KEY); } catch { /* ignore */ }
      setUser(null);
      setLeaving(true);
      flashToast({ title: 'Password changed', description: 'Log in with your new password. You have been logged out everywhere else.', variant: 'success' });
      window.location.assign('/login');
    } catch (err) {
      busy.current = false;
      if (err instanceof ApiError && err.fields.token) { setInvalid(true); return; }
      applyServerErrors(setError, err, ['password', 'confirmPassword']);
      toast({ title: 'Password reset failed', description: errorText(err, 'Unknown error during password reset'), variant: 'destructive' });
    }
  };

  if (token === null) return <div className="space-y-3" aria-hidden="true"><div className="skeleton h-10" /><div className="skeleton h-10" /></div>;
  if (!token || invalid) {
    return (
      <div role="alert" className="rounded-md border border-red-700 p-4">
        <p ref={refused} tabIndex={-1} className="font-semibold">This reset link is invalid or has expired</p>
        {/* This page serves both kinds of link and cannot tell them apart (the token is all it has): say both lifetimes
            (RESET_TTL_MS, 1 hour; a walk-in's set-password link, SET_PASSWORD_TTL_MS, 7 days). */}
        <p className="mt-1 text-sm muted">A password reset link works once and for 1 hour; a link to set your first password works once and for 7 days. Ask for a new one.</p>
        <a href="/forgot-password" className="btn-primary mt-4">Send a new link</a>
      </div>
    );
  }
  const pending = isSubmitting || leaving;
  return (
    <form method="post" noValidate onSubmit={handleSubmit(onSubmit, (e) => { if (e.token) setInvalid(true); })} className="space-y-4" aria-label="Choose a new password">
      <Field id="reset-password" label="New password" error={errors.password?.message} hint="At least 6 characters.">
        <input {...fieldProps('reset-password', errors.password?.message)} {...register('password')} type="password" autoComplete="new-password" className="input" />
      </Field>
      <Field id="reset-confirmPassword" label="Confirm new password" error={errors.confirmPassword?.message}>
        <input {...fieldProps('reset-confirmPassword', errors.confirmPassword?.message)} {...register('confirmPassword')} type="password" autoComplete="new-password" className="input" />
      </Field>
      <BusyButton type="submit" className="btn-primary w-full" busy={pending}>
        {pending ? 'Saving...' : 'Set new password'}
      </BusyButton>
    </form>
  );
}
