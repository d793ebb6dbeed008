/**
 * New walk-in application (issue #18 point 6), /admin/applications/new: an admin at a campus desk
 * 1. creates the person's account (name, e-mail, phone, campus, privacy notice agreed) — the API e-mails them a
 *    set-password link valid 7 days;
 * 2. fills the application form on their behalf with the wizard's own step components (course, personal details,
 *    academic history with NSC results, scanned documents uploaded as the applicant's files), records that the fee
 *    was paid and that the applicant confirmed the information, sees the eligibility warning, and submits. The fee
 *    shown is the one charged now (GET /api/settings/application-fee), sent as `expectedFee`; when an admin changed it
 *    meanwhile the API stores nothing (409) and the form shows the new fee with the message, to be confirmed again.
 * Validation is the API's (WalkInApplicantSchema, the application step schemas); focus goes to the first error.
 * Once the account is created the focus moves to step 2's heading (the Create account button that had it is gone).
 */
import { appRef } from '../../lib/format.ts';
import { useEffect, useRef, useState } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { WalkInApplicantSchema, type WalkInApplicant } from '#contracts/walk-in.ts';
import type { PublicUser } from '#contracts/auth.ts';
import { feeLabel } from '#contracts/application-steps.ts';
import { api, ApiError } from '../../lib/api-client.ts';
import { saveApi } from '../ui/save-api.ts';
import { toast } from '../../stores/toasts.ts';
import { Field, fieldProps } from '../ui/Field.tsx';
import { useLeaveWarning } from '../ui/use-leave-warning.ts';
import { useAdminAccess } from './use-admin.ts';
import { AccessGate } from './admin-ui.tsx';
import { ErrorState } from '../ui/ErrorState.tsx';
import { SkeletonRows } from '../ui/SkeletonRows.tsx';
import { PersonalStep } from '../applications/apply/PersonalStep.tsx';
import { AcademicStep } from '../applications/apply/AcademicStep.tsx';
import { DocumentsStep } from '../applications/apply/DocumentsStep.tsx';
import { CheckField } from '../applications/apply/fields.tsx';
import { EligibilityNotice } from '../applications/apply/EligibilityNotice.tsx';
import { emptyForm, fromUser, LAST_STEP, stepResolver, submitBody, type ApplyForm, type CourseOption } from '../applications/apply/form.ts';
import { unconfirmedFeeNote, useApplicationFee } from '../applications/apply/fee.ts';
import { formatPhone } from '../../lib/phone.ts';
import { BusyButton, unlessBusy } from '../ui/BusyButton.tsx';

interface Campus { id: number; name: string }
interface Created { applicant: PublicUser; campus: Campus; setPasswordLinkDays: number; sms: string }

/** The /admin/applications/new island: an application entered by staff for a walk-in applicant (issue #18). */
export default function WalkInApplication() {
  const access = useAdminAccess();
  return <AccessGate access={access}><WalkIn /></AccessGate>;
}

function WalkIn() {
  const [campuses, setCampuses] = useState<Campus[] | null>(null);
  const [courses, setCourses] = useState<CourseOption[] | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [created, setCreated] = useState<Created | null>(null);
  const [submitted, setSubmitted] = useState<{ id: number } | null>(null);
  const load = () => {
    setLoadError(false);
    Promise.all([api<{ campuses: Campus[] }>('/api/admin/walk-in/campuses'), api<{ courses: CourseOption[] }>('/api/courses')])
      .then(([c, k]) => { setCampuses(c.campuses); setCourses(k.courses); }).catch(() => setLoadError(true));
  };
  useEffect(load, []);
  if (loadError) return <ErrorState message="Could not load campuses and courses." onRetry={load} />;
  if (!campuses || !courses) return <SkeletonRows rows={5} label="Loading" />;
  if (submitted && created) {
    return (
      <section className="card space-y-3 p-6" aria-labelledby="walkin-done">
        <h2 id="walkin-done" className="text-xl font-bold" tabIndex={-1} ref={(el) => el?.focus()}>Application {appRef(submitted.id)} submitted</h2>
        <p>{created.applicant.firstName} {created.applicant.lastName} can follow it after choosing a password with the link e-mailed to {created.applicant.email}.</p>
        <div className="flex flex-wrap gap-2">
          <a className="btn-secondary" href="/admin/applications">Back to applications</a>
          <button type="button" className="btn-primary" onClick={() => { setCreated(null); setSubmitted(null); }}>New walk-in application</button>
        </div>
      </section>
    );
  }
  return (
    <div className="space-y-6">
      <ApplicantStep campuses={campuses} created={created} onCreated={setCreated} />
      {created && <ApplicationStep created={created} courses={courses} onSubmitted={setSubmitted} />}
    </div>
  );
}

const EMPTY_APPLICANT = { firstName: '', lastName: '', email: '', phone: '', campusId: '' as unknown as number, privacyConsent: false as unknown as true };

/** What became of the set-password SMS (`sms` of POST /api/admin/walk-in/applicants), said as it is to the desk. */
function smsOutcome(sms: string, phone: string | null | undefined): string {
  const mail = ' Tell the applicant to check their e-mail.';
  if (sms === 'queued') return ` It was also sent by SMS to ${phone}.`;
  if (sms === 'opted_out') return ` It was not sent by SMS: SMS are turned off for ${phone} (the number replied STOP, or the account opted out).${mail}`;
  if (sms === 'too_long') return ` It could not be sent by SMS: with this site's address (PUBLIC_URL) the link does not fit in one SMS; please tell the site's administrator.${mail}`;
  return ` It could not be sent by SMS: ${phone || 'the phone number'} is not a valid mobile number.${mail}`;
}

function ApplicantStep({ campuses, created, onCreated }: { campuses: Campus[]; created: Created | null; onCreated: (c: Created) => void }) {
  const { register, handleSubmit, setError, formState: { errors, isSubmitting, isDirty } } = useForm<WalkInApplicant>({
    resolver: zodResolver(WalkInApplicantSchema) as never, defaultValues: EMPTY_APPLICANT, shouldFocusError: true,
  });
  useLeaveWarning(isDirty && !created);
  const err = (k: keyof WalkInApplicant) => errors[k]?.message as string | undefined;
  const onSubmit = handleSubmit(async (values) => {
    try {
      const r = await saveApi<Omit<Created, 'campus'>>('/api/admin/walk-in/applicants', { method: 'POST', json: values });
      const campus = campuses.find((c) => c.id === Number(values.campusId))!;
      onCreated({ ...r, campus });
      toast({ title: 'Account created', description: `A set-password link was e-mailed to ${r.applicant.email}.`, variant: 'success' });
    } catch (e) {
      const taken = e instanceof ApiError && e.status === 409;
      if (taken) setError('email', { message: 'An account with this e-mail already exists. Ask the person to log in, or to use Forgot password.' }, { shouldFocus: true });
      else if (e instanceof ApiError) for (const [k, m] of Object.entries(e.fields)) setError(k as keyof WalkInApplicant, { message: m }, { shouldFocus: true });
      toast({ title: 'Could not create account', description: e instanceof ApiError ? e.userMessage : 'An error occurred', variant: 'destructive' });
    }
  });
  if (created) {
    return (
      <section className="card p-4" aria-labelledby="walkin-account" data-testid="walkin-account">
        <h2 id="walkin-account" className="font-semibold">1. Applicant account</h2>
        <p className="mt-1 text-sm">{created.applicant.firstName} {created.applicant.lastName} · {created.applicant.email} · {formatPhone(created.applicant.phone)} · at {created.campus.name}</p>
        <p className="mt-1 text-sm muted">A set-password link (valid {created.setPasswordLinkDays} days) was e-mailed to the applicant.
          {smsOutcome(created.sms, formatPhone(created.applicant.phone))}</p>
      </section>
    );
  }
  return (
    <form noValidate onSubmit={unlessBusy(isSubmitting, onSubmit)} className="card grid gap-4 p-4 sm:grid-cols-2" aria-labelledby="walkin-new">
      <h2 id="walkin-new" className="font-semibold sm:col-span-2">1. Create the applicant's account</h2>
      <Field id="w-first" label="First name" error={err('firstName')}><input className="input" {...fieldProps('w-first', err('firstName'))} {...register('firstName')} /></Field>
      <Field id="w-last" label="Last name" error={err('lastName')}><input className="input" {...fieldProps('w-last', err('lastName'))} {...register('lastName')} /></Field>
      <Field id="w-email" label="Email" error={err('email')}><input type="email" className="input" {...fieldProps('w-email', err('email'))} {...register('email')} /></Field>
      <Field id="w-phone" label="Phone" error={err('phone')}><input type="tel" className="input" {...fieldProps('w-phone', err('phone'))} {...register('phone')} /></Field>
      <Field id="w-campus" label="Campus" error={err('campusId')}>
        <select className="input" {...fieldProps('w-campus', err('campusId'))} {...register('campusId')}>
          <option value="">Select the campus…</option>
          {campuses.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
        </select>
      </Field>
      <div className="sm:col-span-2">
        {/* Box and words in one label, at least 44 px tall; a 20 px box that shrink-0 keeps square (at 360 px it was squeezed to 13×16). */}
        <label htmlFor="w-consent" className="flex min-h-11 items-start gap-3 text-sm">
          <input id="w-consent" type="checkbox" className="h-5 w-5 shrink-0" {...register('privacyConsent')} aria-invalid={err('privacyConsent') ? true : undefined} aria-describedby={err('privacyConsent') ? 'w-consent-error' : undefined} />
          <span className="min-w-0">The applicant has read the <a className="underline" href="/privacy" target="_blank" rel="noopener">Privacy Policy</a> and agrees that the college keeps their details.</span>
        </label>
        {err('privacyConsent') && <p id="w-consent-error" role="alert" className="field-error">{err('privacyConsent')}</p>}
      </div>
      <div className="sm:col-span-2"><BusyButton type="submit" className="btn-primary" busy={isSubmitting}>{isSubmitting ? 'Creating…' : 'Create account'}</BusyButton></div>
    </form>
  );
}

function ApplicationStep({ created, courses, onSubmitted }: { created: Created; courses: CourseOption[]; onSubmitted: (a: { id: number }) => void }) {
  const methods = useForm<ApplyForm>({
    defaultValues: fromUser(emptyForm(''), created.applicant), resolver: stepResolver(() => LAST_STEP), shouldFocusError: true,
  });
  useLeaveWarning(methods.formState.isDirty);
  // Shown once the account is created, when the account form (and its focused Create account) goes: the focus moves
  // to this step's heading, so keyboard and screen-reader users carry on here rather than from <body> (WCAG 2.4.3).
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => { heading.current?.focus(); }, []);
  // The fee charged now (admin setting), shown in the agreement and sent back as expectedFee.
  const [fee, refreshFee] = useApplicationFee(undefined);
  const onSubmit = methods.handleSubmit(async (values) => {
    try {
      const body = { ...submitBody(values, undefined, fee.fee ?? undefined), applicantId: created.applicant.id, campusId: created.campus.id };
      const r = await saveApi<{ application: { id: number } }>('/api/admin/walk-in/applications', { method: 'POST', json: body });
      toast({ title: 'Application submitted successfully', description: `${appRef(r.application.id)} was entered for ${created.applicant.firstName} ${created.applicant.lastName}.`, variant: 'success' });
      onSubmitted(r.application);
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && e.body?.error?.code === 'fee_changed') {
        // Nothing was stored: show the new fee; the desk confirms the applicant paid that amount.
        await refreshFee();
        methods.setValue('payment.paymentTerms', false);
      }
      if (e instanceof ApiError) for (const [k, m] of Object.entries(e.fields)) methods.setError(k as never, { message: m }, { shouldFocus: true });
      toast({ title: 'Error submitting application', description: e instanceof ApiError ? e.userMessage : 'An error occurred', variant: 'destructive' });
    }
  });
  return (
    <FormProvider {...methods}>
      <form noValidate onSubmit={unlessBusy(methods.formState.isSubmitting, onSubmit)} className="card space-y-6 p-4" aria-labelledby="walkin-form">
        <h2 id="walkin-form" ref={heading} tabIndex={-1} className="font-semibold">2. Application, entered on the applicant's behalf at {created.campus.name}</h2>
        <PersonalStep urlCourse="" courses={courses} coursesError={false} />
        <AcademicStep />
        <section aria-labelledby="walkin-docs"><h3 id="walkin-docs" className="mb-2 font-semibold">Scanned documents</h3>
          <DocumentsStep uploadUrl={`/api/admin/walk-in/applicants/${created.applicant.id}/uploads`} />
        </section>
        <Notice courses={courses} />
        <div>
          <CheckField path="payment.paymentTerms">The applicant paid the non-refundable application fee{fee.fee ? <> of <span data-testid="fee">{feeLabel(fee.fee)}</span></> : ' (loading the amount…)'} at the desk.</CheckField>
          {unconfirmedFeeNote(fee) && <p className="mt-1 text-sm muted">{unconfirmedFeeNote(fee)}</p>}
        </div>
        <CheckField path="certification">The applicant confirmed that the information in this application is true and complete.</CheckField>
        <BusyButton type="submit" className="btn-primary" busy={methods.formState.isSubmitting} disabled={!fee.fee}>{methods.formState.isSubmitting ? 'Submitting...' : 'Submit Application'}</BusyButton>
      </form>
    </FormProvider>
  );
}

function Notice({ courses }: { courses: CourseOption[] }) {
  const [courseId, results] = useWatch<ApplyForm>({ name: ['courseId', 'academicHistory.nscResults'] }) as [string, ApplyForm['academicHistory']['nscResults']];
  return <EligibilityNotice course={courses.find((c) => String(c.id) === courseId) ?? null} results={results ?? []} />;
}
