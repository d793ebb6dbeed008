/**
 * Comprehensive registration wizard 'Student Registration' (spec §2): progress bar, 'Step X of 5', Previous/Next,
 * last button 'Complete Registration' ('Submitting...' while pending). Each step is checked with its zod schema
 * from api/contracts/auth.ts before moving on. For a South African (or before a nationality is chosen) the date of
 * birth is read-only and filled from the ID number (spec §5), and the ID must pass its Luhn check; for any other
 * nationality the ID number is a passport or foreign ID number and the date of birth is typed as YYYY-MM-DD
 * (typesDateOfBirth, typedBirthDateProblem). Changing the nationality keeps what was typed. Submits to
 * POST /api/auth/comprehensive-register; success → /dashboard/student.
 */
import { destinationAfterLogin } from './safe-redirect.ts';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { ZodMiniType as ZodType } from 'zod/mini';
import {
  birthDateFromIdNumber, ComprehensiveRegisterSchema, RegisterAcademicSchema, RegisterAddressSchema, RegisterCourseSchema,
  RegisterEmergencySchema, RegisterPersonalStepSchema, typesDateOfBirth, type PublicUser,
} from '#contracts/auth.ts';
import { COUNTRY_OPTIONS } from '#contracts/application-steps.ts';
import { api, ApiError } from '../../lib/api-client.ts';
import { withProofOfWork } from '../../lib/proof-of-work.ts';
import { acceptRegistration } from '../../stores/session.ts';
import { flashToast, toast } from '../../stores/toasts.ts';
import { Field, fieldProps } from '../ui/Field.tsx';
import { errorText, useHydrated } from './form-helpers.ts';
import { useStepHistory } from '../ui/use-step-history.ts';
import { useStepTitle } from '../ui/use-step-title.ts';
import { allowLeaving, useLeaveWarning } from '../ui/use-leave-warning.ts';
import { useCourseOptions } from './use-courses.ts';
import { EMAIL_TAKEN_MESSAGE, EmailTakenError } from './EmailTakenError.tsx';
import { withRedirect } from './use-signed-in-redirect.ts';
import { clearRegisterDraft, readWizardDraft, saveWizardDraft } from './register-draft.ts';
import { NscResultsFields, type NscRow } from '../ui/NscResultsFields.tsx';
import { BusyButton } from '../ui/BusyButton.tsx';

const INSTITUTION = { name: '', city: '', country: '', from: '', to: '', qualification: '', grade: '' };
const DEFAULTS = {
  firstName: '', lastName: '', email: '', password: '', confirmPassword: '', phone: '', dateOfBirth: '', nationality: '', idNumber: '',
  addressLine1: '', addressLine2: '', city: '', state: '', postalCode: '', country: '',
  academicHistory: { highSchool: { ...INSTITUTION }, college: { ...INSTITUTION }, nscResults: [] as NscRow[] },
  emergencyContactName: '', emergencyContactPhone: '', emergencyContactRelation: '',
  courseId: '', termsAndConditions: false,
};
type Values = typeof DEFAULTS;

const STEPS: { title: string; schema: ZodType; fields: string[] }[] = [
  { title: 'Personal Information', schema: RegisterPersonalStepSchema, fields: ['firstName', 'lastName', 'email', 'password', 'confirmPassword', 'phone', 'idNumber', 'dateOfBirth', 'nationality'] },
  { title: 'Address', schema: RegisterAddressSchema, fields: ['addressLine1', 'addressLine2', 'city', 'state', 'postalCode', 'country'] },
  { title: 'Academic History', schema: RegisterAcademicSchema, fields: ['academicHistory'] },
  { title: 'Emergency Contact', schema: RegisterEmergencySchema, fields: ['emergencyContactName', 'emergencyContactPhone', 'emergencyContactRelation'] },
  { title: 'Course Selection', schema: RegisterCourseSchema, fields: ['courseId', 'termsAndConditions'] },
];
const stepOf = (path: string) => Math.max(0, STEPS.findIndex((s) => s.fields.some((f) => path === f || path.startsWith(`${f}.`))));

/** The payload as the server wants it: an all-blank college is left out. */
function payload(v: Values) {
  const college = v.academicHistory.college;
  const hasCollege = Object.values(college).some((x) => String(x).trim() !== '');
  const nsc = v.academicHistory.nscResults ?? [];
  return { ...v, academicHistory: { highSchool: v.academicHistory.highSchool, ...(hasCollege ? { college } : {}), ...(nsc.length ? { nscResults: nsc } : {}) } };
}

export default function RegisterWizard() {
  const [step, setStep] = useState(0);
  const [leaving, setLeaving] = useState(false);
  const busy = useRef(false);
  const hydrated = useHydrated();
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  const { courses, loading, failed } = useCourseOptions();
  const { register, control, handleSubmit, getValues, setValue, setError, setFocus, clearErrors, watch, reset, formState: { errors, isSubmitting, isDirty } } = useForm<Values>({ defaultValues: DEFAULTS, shouldUnregister: false });
  // The answers, passwords excepted, are kept in this tab while they are typed and come back after a reload or Back
  // (register-draft.ts); the passwords are not, so leaving with answers in the form still asks first.
  useLeaveWarning(isDirty);
  const keptCourse = useRef('');
  useEffect(() => {
    const kept = readWizardDraft();
    if (kept) {
      keptCourse.current = typeof kept.courseId === 'string' ? kept.courseId : '';
      reset({ ...DEFAULTS, ...(kept as Partial<Values>), password: '', confirmPassword: '' }, { keepDefaultValues: true });
    }
    const sub = watch((v) => saveWizardDraft(v as Record<string, unknown>));
    return () => sub.unsubscribe();
  }, [reset, watch]);

  const idNumber = watch('idNumber');
  const typedDob = typesDateOfBirth(watch('nationality'));
  // A South African's date of birth follows the ID number; another nationality's is typed. The typed one is kept
  // aside while za fills the field, and comes back when another nationality is chosen again.
  const ownDob = useRef('');
  const wasTyped = useRef(typedDob);
  useEffect(() => {
    if (typedDob !== wasTyped.current) clearErrors('dateOfBirth');
    if (typedDob) { if (!wasTyped.current) setValue('dateOfBirth', ownDob.current); }
    else {
      if (wasTyped.current) ownDob.current = getValues('dateOfBirth');
      setValue('dateOfBirth', birthDateFromIdNumber(idNumber ?? ''));
    }
    wasTyped.current = typedDob;
  }, [idNumber, typedDob, setValue, getValues, clearErrors]);
  useEffect(() => { if (moved.current) heading.current?.focus(); moved.current = true; }, [step]);
  // A kept course is chosen again once the list has arrived (its option did not exist when the draft came back).
  useEffect(() => {
    if (keptCourse.current && courses.some((c) => String(c.id) === keptCourse.current)) { setValue('courseId', keptCourse.current); keptCourse.current = ''; }
  }, [courses, setValue]);
  // Each step has its own page title (WCAG 2.4.2), e.g. 'Address – Step 2 of 5 – Register | <site name>'.
  useStepTitle(STEPS[step]!.title, step + 1, STEPS.length);

  /**
   * Shows `issues` (path → message) on the form and focuses the first one a person can fix; returns whether there
   * were any. A read-only date of birth (za: it comes from the ID number) sends its error's focus to the ID number.
   */
  const show = (issues: [string, string][]) => {
    const dobEditable = typesDateOfBirth(getValues('nationality'));
    const first = issues.findIndex(([path]) => dobEditable || path !== 'dateOfBirth');
    issues.forEach(([path, message], i) => setError(path as never, { type: 'validate', message }, { shouldFocus: i === first }));
    if (first < 0 && issues.length) setFocus('idNumber' as never);
    return issues.length > 0;
  };
  const issuesOf = (schema: ZodType, values: unknown): [string, string][] => {
    const r = schema.safeParse(values);
    if (r.success) return [];
    const seen = new Map<string, string>();
    for (const i of r.error.issues) { const k = i.path.join('.'); if (!seen.has(k)) seen.set(k, i.message); }
    return [...seen];
  };

  const next = () => {
    clearErrors();
    const v = payload(getValues());
    if (show(issuesOf(STEPS[step]!.schema, v))) return;
    setStep((s) => Math.min(s + 1, STEPS.length - 1));
  };

  // The browser's Back is Previous; its Forward is Next, with the same checks (use-step-history.ts).
  useStepHistory('registerStep', step, hydrated, (to) => {
    clearErrors();
    if (to > step && show(issuesOf(STEPS[step]!.schema, payload(getValues())))) return false;
    setStep(to);
    return true;
  });

  const submit = async () => {
    if (busy.current) return;
    clearErrors();
    const v = payload(getValues());
    const all = issuesOf(ComprehensiveRegisterSchema, v);
    if (all.length) {
      const first = Math.min(...all.map(([p]) => stepOf(p)));
      setStep(first);
      setTimeout(() => show(all.filter(([p]) => stepOf(p) === first)), 0);
      return;
    }
    busy.current = true;
    try {
      const r = await withProofOfWork((altcha) => api<{ user?: PublicUser; token?: string }>('/api/auth/comprehensive-register', { method: 'POST', json: { ...v, role: 'student', ...(altcha ? { altcha } : {}) } }),
        () => toast({ title: 'One moment…', description: 'Many people are registering from your network; your browser is doing a quick check.' }));
      acceptRegistration(r);
      clearRegisterDraft();
      setLeaving(true);
      allowLeaving();
      flashToast({ title: 'Registration successful', description: 'Your account has been created.', variant: 'success' });
      window.location.assign(destinationAfterLogin('student', new URLSearchParams(window.location.search).get('redirect')));
    } catch (err) {
      busy.current = false;
      if (err instanceof ApiError && Object.keys(err.fields).length) {
        const entries = Object.entries(err.fields);
        const first = Math.min(...entries.map(([p]) => stepOf(p)));
        setStep(first);
        setTimeout(() => show(entries.filter(([p]) => stepOf(p) === first)), 0);
      }
      const description = err instanceof ApiError && err.status === 409 ? 'Could not create account' : errorText(err, 'Unknown error during registration');
      toast({ title: 'Registration failed', description, variant: 'destructive' });
    }
  };

  const onSubmit = () => (step === STEPS.length - 1 ? submit() : next());
  const err = (path: string): string | undefined => {
    let cur: any = errors;
    for (const k of path.split('.')) cur = cur?.[k];
    return cur?.message;
  };
  const text = (path: string, label: string, props: Record<string, unknown> = {}) => {
    const id = `wiz-${path.replace(/\./g, '-')}`;
    return (
      <Field id={id} label={label} error={err(path) === EMAIL_TAKEN_MESSAGE ? undefined : err(path)} hint={props.hint as string | undefined}>
        <input {...fieldProps(id, err(path))} {...(props.hint && !err(path) ? { 'aria-describedby': `${id}-hint` } : {})} {...register(path as never)} className="input" {...(({ hint: _h, ...rest }) => rest)(props)} />
        {err(path) === EMAIL_TAKEN_MESSAGE && <EmailTakenError id={id} login={withRedirect('/login')} />}
      </Field>
    );
  };
  const countrySelect = (path: string, label: string, placeholder: string) => {
    const id = `wiz-${path}`;
    return (
      <Field id={id} label={label} error={err(path)}>
        <select {...fieldProps(id, err(path))} {...register(path as never)} className="input" autoComplete={path === 'country' ? 'country' : undefined}>
          <option value="">{placeholder}</option>
          {COUNTRY_OPTIONS.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
        </select>
      </Field>
    );
  };
  const institution = (prefix: 'highSchool' | 'college') => (
    <div className="grid gap-4 sm:grid-cols-2">
      {text(`academicHistory.${prefix}.name`, prefix === 'highSchool' ? 'High school name' : 'College or university name')}
      {text(`academicHistory.${prefix}.city`, 'City')}
      {text(`academicHistory.${prefix}.country`, 'Country', { autoComplete: 'off' })}
      {text(`academicHistory.${prefix}.qualification`, 'Qualification')}
      {text(`academicHistory.${prefix}.from`, 'Start year', { inputMode: 'numeric', placeholder: 'e.g. 2015' })}
      {text(`academicHistory.${prefix}.to`, 'End year', { inputMode: 'numeric', placeholder: 'e.g. 2019' })}
      {text(`academicHistory.${prefix}.grade`, 'Grade or average')}
    </div>
  );

  const pending = isSubmitting || leaving;
  const last = step === STEPS.length - 1;
  return (
    <form method="post" noValidate onSubmit={handleSubmit(onSubmit)} aria-labelledby="wizard-title" className="card p-6 sm:p-8">
      <h1 id="wizard-title" className="text-2xl font-bold">Student Registration</h1>
      <div className="mt-4">
        <div className="flex justify-between text-sm"><span aria-live="polite">Step {step + 1} of {STEPS.length}</span><span className="muted">{STEPS[step]!.title}</span></div>
        <div role="progressbar" aria-label="Registration progress" aria-valuemin={1} aria-valuemax={STEPS.length} aria-valuenow={step + 1} aria-valuetext={`Step ${step + 1} of ${STEPS.length}`} className="mt-2 h-2 w-full overflow-hidden rounded border border-slate-200 bg-slate-200 dark:border-slate-700 dark:bg-slate-700">
          <div className="h-full bg-brand-700 transition-all forced-colors:bg-[Highlight]" style={{ width: `${((step + 1) / STEPS.length) * 100}%` }} />
        </div>
      </div>
      <h2 ref={heading} tabIndex={-1} className="mt-6 text-xl font-semibold outline-none">{STEPS[step]!.title}</h2>
      <div className="mt-4 space-y-4">
        {step === 0 && (<>
          <div className="grid gap-4 sm:grid-cols-2">
            {text('firstName', 'First name', { autoComplete: 'given-name' })}
            {text('lastName', 'Last name', { autoComplete: 'family-name' })}
          </div>
          {text('email', 'Email', { type: 'email', inputMode: 'email', autoComplete: 'email' })}
          <div className="grid gap-4 sm:grid-cols-2">
            {text('password', 'Password', { type: 'password', autoComplete: 'new-password', hint: 'At least 6 characters.' })}
            {text('confirmPassword', 'Confirm password', { type: 'password', autoComplete: 'new-password' })}
          </div>
          {text('phone', 'Phone', { type: 'tel', inputMode: 'tel', autoComplete: 'tel' })}
          {countrySelect('nationality', 'Nationality', 'Select your nationality')}
          <div className="grid gap-4 sm:grid-cols-2">
            {typedDob
              ? text('idNumber', 'Passport or ID number', { autoComplete: 'off', spellCheck: false, hint: 'Your passport or national ID number.' })
              : text('idNumber', 'ID number', { inputMode: 'numeric', autoComplete: 'off', hint: 'South African ID: 13 digits.' })}
            {typedDob
              ? text('dateOfBirth', 'Date of birth', { autoComplete: 'bday', spellCheck: false, maxLength: 10, hint: 'YYYY-MM-DD' })
              : text('dateOfBirth', 'Date of birth', { readOnly: true, hint: 'Filled in from your ID number.', className: 'input bg-slate-100 dark:bg-slate-800' })}
          </div>
        </>)}
        {step === 1 && (<>
          {text('addressLine1', 'Address line 1', { autoComplete: 'address-line1' })}
          {text('addressLine2', 'Address line 2 (optional)', { autoComplete: 'address-line2' })}
          <div className="grid gap-4 sm:grid-cols-2">
            {text('city', 'City', { autoComplete: 'address-level2' })}
            {text('state', 'State/Province', { autoComplete: 'address-level1' })}
            {text('postalCode', 'Postal code', { autoComplete: 'postal-code' })}
            {countrySelect('country', 'Country', 'Select your country')}
          </div>
        </>)}
        {step === 2 && (<>
          <fieldset><legend className="mb-2 font-semibold">High school</legend>{institution('highSchool')}</fieldset>
          <NscResultsFields control={control as never} register={register as never} errors={errors} name="academicHistory.nscResults" idPrefix="reg-nsc" />
          <fieldset><legend className="mb-2 font-semibold">College or university (optional)</legend>{institution('college')}</fieldset>
        </>)}
        {step === 3 && (<>
          {text('emergencyContactName', 'Emergency contact name', { autoComplete: 'off' })}
          {text('emergencyContactPhone', 'Emergency contact phone', { type: 'tel', inputMode: 'tel', autoComplete: 'off' })}
          {text('emergencyContactRelation', 'Relationship', { autoComplete: 'off', placeholder: 'e.g. Mother' })}
        </>)}
        {step === 4 && (<>
          <Field id="wiz-courseId" label="Course" error={err('courseId')} hint={failed ? 'Courses could not be loaded. Please reload the page.' : undefined}>
            <select {...fieldProps('wiz-courseId', err('courseId'))} {...register('courseId')} className="input" disabled={loading} aria-busy={loading || undefined}>
              <option value="">{loading ? 'Loading courses...' : 'Select a course'}</option>
              {courses.map((c) => <option key={c.id} value={String(c.id)}>{c.label}</option>)}
            </select>
          </Field>
          <div>
            <label className="flex items-start gap-2 text-sm">
              <input type="checkbox" {...register('termsAndConditions')} aria-invalid={err('termsAndConditions') ? true : undefined} aria-describedby={err('termsAndConditions') ? 'wiz-terms-error' : undefined} className="mt-0.5 h-4 w-4 accent-brand-700" />
              <span>I agree to the Terms and Conditions and Privacy Policy</span>
            </label>
            <p className="mt-1 text-xs muted">Read the <a href="/terms" target="_blank" rel="noopener" className="underline">Terms and Conditions<span className="sr-only"> (opens in a new tab)</span></a> and the <a href="/privacy" target="_blank" rel="noopener" className="underline">Privacy Policy<span className="sr-only"> (opens in a new tab)</span></a>.</p>
            {err('termsAndConditions') && <p id="wiz-terms-error" role="alert" className="field-error">{err('termsAndConditions')}</p>}
          </div>
        </>)}
      </div>
      <div className="mt-8 flex items-center justify-between gap-3">
        <button type="button" className="btn-secondary" onClick={() => { clearErrors(); setStep((s) => Math.max(0, s - 1)); }} disabled={step === 0 || pending}>Previous</button>
        {last
          ? <BusyButton type="submit" className="btn-primary" busy={pending}>{pending ? 'Submitting...' : 'Complete Registration'}</BusyButton>
          : <button type="submit" className="btn-primary" disabled={!hydrated}>Next</button>}
      </div>
    </form>
  );
}
