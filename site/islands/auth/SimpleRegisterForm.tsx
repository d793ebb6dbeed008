/**
 * Simple registration (spec §2 /register, §5 "Simple register", §8 toasts): names, email, password twice,
 * phone, optional course ('none' = no course) and the terms checkbox. Success → /apply/{courseId} when a course
 * was picked, else /dashboard/student. The account is always a student (the server decides). A taken e-mail
 * shows the spec toast and, at the field, how to log in or reset the password (EmailTakenError). What is typed,
 * passwords excepted, survives a reload or Back until the account is created (register-draft.ts).
 */
import { destinationAfterLogin } from './safe-redirect.ts';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { PublicUser } from '#contracts/auth.ts';
import type { SimpleRegisterSchema } from '#contracts/sign-in.ts';
import { api } from '../../lib/api-client.ts';
import { withProofOfWork } from '../../lib/proof-of-work.ts';
import { acceptRegistration } from '../../stores/session.ts';
import { flashToast, toast } from '../../stores/toasts.ts';
import { Field, fieldProps } from '../ui/Field.tsx';
import { typedValues } from '../ui/typed-values.ts';
import { applyServerErrors, errorText, useHydrated } from './form-helpers.ts';
import { useCourseOptions } from './use-courses.ts';
import { lazyZodResolver } from '../ui/lazy-resolver.ts';
import { EMAIL_TAKEN_MESSAGE, EmailTakenError } from './EmailTakenError.tsx';
import { withRedirect } from './use-signed-in-redirect.ts';
import { clearRegisterDraft, draftCourseId } from './register-draft.ts';
import { BusyButton } from '../ui/BusyButton.tsx';

type Input = z.input<typeof SimpleRegisterSchema>;
type Output = z.output<typeof SimpleRegisterSchema>;
/** The contract's SimpleRegisterSchema, loaded when the form is first focused (issue #17). */
const validation = lazyZodResolver<Input, Output>(() => import('#contracts/sign-in.ts').then((m) => m.SimpleRegisterSchema));
const FIELDS = ['firstName', 'lastName', 'email', 'password', 'confirmPassword', 'phone', 'courseId', 'terms'] as const;

export default function SimpleRegisterForm() {
  const { courses, loading, failed } = useCourseOptions();
  const { register, handleSubmit, setError, setValue, getValues, formState: { errors, isSubmitting } } = useForm<Input, unknown, Output>({
    resolver: validation.resolver,
    // What was typed before hydration is kept (issue #14 point 12).
    defaultValues: typedValues({ firstName: '', lastName: '', email: '', password: '', confirmPassword: '', phone: '', courseId: 'none', terms: false as unknown as true }, (n) => `reg-${n}`),
  });
  const busy = useRef(false);
  const hydrated = useHydrated();
  const [leaving, setLeaving] = useState(false);
  const e = (k: (typeof FIELDS)[number]) => errors[k]?.message as string | undefined;
  // A course kept in the draft (register-draft.ts) is chosen once the list has arrived.
  useEffect(() => {
    const kept = draftCourseId();
    if (kept && getValues('courseId') === 'none' && courses.some((c) => String(c.id) === kept)) setValue('courseId', kept);
  }, [courses, getValues, setValue]);

  const onSubmit = async (v: Output) => {
    if (busy.current) return; // a double click sends one request
    busy.current = true;
    try {
      const r = await withProofOfWork((altcha) => api<{ user?: PublicUser; token?: string }>('/api/colfront/auth/register', {
        method: 'POST', json: { ...v, courseId: v.courseId ?? 'none', role: 'student', ...(altcha ? { altcha } : {}) },
      }), () => toast({ title: 'One moment…', description: 'Many people are registering from your network; your browser is doing a quick check.' }));
      acceptRegistration(r);
      clearRegisterDraft();
      setLeaving(true);
      flashToast({ title: 'Registration successful', description: 'Your account has been created.', variant: 'success' });
      window.location.assign(v.courseId ? `/apply/${v.courseId}` : destinationAfterLogin('student', new URLSearchParams(window.location.search).get('redirect')));
    } catch (err) {
      busy.current = false;
      applyServerErrors(setError, err, FIELDS);
      const description = (err as { status?: number })?.status === 409 ? 'Could not create account' : errorText(err, 'Unknown error during registration');
      toast({ title: 'Registration failed', description, variant: 'destructive' });
    }
  };

  const pending = isSubmitting || leaving;
  return (
    <form data-register-draft method="post" noValidate onSubmit={handleSubmit(onSubmit)} onFocusCapture={validation.preload} className="space-y-4" aria-label="Register">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="reg-firstName" label="First name" error={e('firstName')}>
          <input {...fieldProps('reg-firstName', e('firstName'))} {...register('firstName')} autoComplete="given-name" className="input" />
        </Field>
        <Field id="reg-lastName" label="Last name" error={e('lastName')}>
          <input {...fieldProps('reg-lastName', e('lastName'))} {...register('lastName')} autoComplete="family-name" className="input" />
        </Field>
      </div>
      {/* A taken address: the message says what to do next, with links (EmailTakenError). */}
      <Field id="reg-email" label="Email" error={e('email') === EMAIL_TAKEN_MESSAGE ? undefined : e('email')}>
        <input {...fieldProps('reg-email', e('email'))} {...register('email')} type="email" inputMode="email" autoComplete="email" className="input" />
        {e('email') === EMAIL_TAKEN_MESSAGE && <EmailTakenError id="reg-email" login={withRedirect('/login')} />}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="reg-password" label="Password" error={e('password')} hint="At least 6 characters.">
          <input {...fieldProps('reg-password', e('password'))} aria-describedby={e('password') ? 'reg-password-error' : 'reg-password-hint'} {...register('password')} type="password" autoComplete="new-password" className="input" />
        </Field>
        <Field id="reg-confirmPassword" label="Confirm password" error={e('confirmPassword')}>
          <input {...fieldProps('reg-confirmPassword', e('confirmPassword'))} {...register('confirmPassword')} type="password" autoComplete="new-password" className="input" />
        </Field>
      </div>
      <Field id="reg-phone" label="Phone" error={e('phone')}>
        <input {...fieldProps('reg-phone', e('phone'))} {...register('phone')} type="tel" inputMode="tel" autoComplete="tel" className="input" />
      </Field>
      <Field id="reg-courseId" label="Course (optional)" error={e('courseId')} hint={failed ? 'Courses could not be loaded. You can choose one later.' : undefined}>
        <select {...fieldProps('reg-courseId', e('courseId'))} {...register('courseId')} className="input" aria-busy={(loading && hydrated) || undefined}>
          {/* The courses are fetched once the island runs (on first use, client:interact); until then the default shows. */}
          <option value="none">{loading && hydrated ? 'Loading courses...' : 'No course yet'}</option>
          {courses.map((c) => <option key={c.id} value={String(c.id)}>{c.label}</option>)}
        </select>
      </Field>
      <div>
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" id="reg-terms" {...register('terms')} aria-invalid={e('terms') ? true : undefined} aria-describedby={e('terms') ? 'reg-terms-error' : undefined} className="mt-0.5 h-4 w-4 shrink-0 accent-brand-700" />
          <span className="min-w-0">I agree to the <a href="/terms" target="_blank" rel="noopener" className="underline">terms and conditions<span className="sr-only"> (opens in a new tab)</span></a> and the <a href="/privacy" target="_blank" rel="noopener" className="underline">privacy policy<span className="sr-only"> (opens in a new tab)</span></a></span>
        </label>
        {e('terms') && <p id="reg-terms-error" role="alert" className="field-error">{e('terms')}</p>}
      </div>
      {/* Enabled before hydration: the pages load this form client:interact, which holds a submit until it runs. */}
      <BusyButton type="submit" className="btn-primary w-full" busy={pending}>
        {pending ? 'Creating account...' : 'Create account'}
      </BusyButton>
    </form>
  );
}
