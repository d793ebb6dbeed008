/**
 * /forgot-password: asks for the e-mail and always shows the same confirmation, whether or not an account
 * exists (issue #4). The e-mail holds a single-use link valid for 1 hour.
 */
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { ForgotPasswordSchema } from '#contracts/auth.ts';
import { api } from '../../lib/api-client.ts';
import { toast } from '../../stores/toasts.ts';
import { Field, fieldProps } from '../ui/Field.tsx';
import { applyServerErrors, errorText, useHydrated } from './form-helpers.ts';
import { BusyButton, unlessBusy } from '../ui/BusyButton.tsx';

type Values = z.input<typeof ForgotPasswordSchema>;

export default function ForgotPasswordForm() {
  const { register, handleSubmit, setError, formState: { errors, isSubmitting } } = useForm<Values>({ resolver: zodResolver(ForgotPasswordSchema), defaultValues: { email: '' } });
  const hydrated = useHydrated();
  const [sent, setSent] = useState<string | null>(null);
  const status = useRef<HTMLDivElement>(null);

  const onSubmit = async (v: Values) => {
    try {
      const r = await api<{ message: string }>('/api/colfront/auth/reset-password', { method: 'POST', json: v });
      setSent(r.message);
      setTimeout(() => status.current?.focus(), 0);
    } catch (err) {
      applyServerErrors(setError, err, ['email']);
      toast({ title: 'Password reset failed', description: errorText(err, 'Unknown error during password reset'), variant: 'destructive' });
    }
  };

  if (sent) {
    return (
      <div ref={status} tabIndex={-1} role="status" className="rounded-md border border-green-700 bg-green-50 p-4 text-green-950 outline-none dark:bg-green-950 dark:text-green-50">
        <p className="font-semibold">Check your e-mail</p>
        <p className="mt-1 text-sm">{sent}</p>
        <p className="mt-3 text-sm"><a href="/login" className="underline">Back to log in</a></p>
      </div>
    );
  }
  return (
    <form method="post" noValidate onSubmit={unlessBusy(isSubmitting, handleSubmit(onSubmit))} className="space-y-4" aria-label="Reset password">
      <Field id="forgot-email" label="Email" error={errors.email?.message}>
        <input {...fieldProps('forgot-email', errors.email?.message)} {...register('email')} type="email" inputMode="email" autoComplete="email" className="input" />
      </Field>
      <BusyButton type="submit" className="btn-primary w-full" disabled={!hydrated} busy={isSubmitting}>
        {isSubmitting ? 'Sending...' : 'Send reset link'}
      </BusyButton>
    </form>
  );
}
