/**
 * The five-step application form of spec §2 (/apply/{courseId?}): Personal Information, Academic History,
 * Supporting Documents (real uploads), Payment (simulated $50.00 fee, spec §9) and Review & Submit.
 * Each step is checked with the same zod schemas the API uses (api/contracts/applications.ts, spec §5);
 * on errors focus moves to the first invalid field. Logged-out visitors are sent to /login with a toast.
 * The draft survives reloads, closed tabs and dropped connections (draft-store.ts).
 * On success: toast 'Application submitted successfully' and /dashboard/student (spec §8).
 */
import { Field } from '../ui/Field.tsx';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { APPLICATION_FEE, COUNTRY_OPTIONS, DOCUMENT_SLOTS, WIZARD_STEPS, YEAR_MAX, YEAR_MIN } from '../../../api/contracts/application-steps.ts';
import type { PublicUser } from '../../../api/contracts/auth.ts';
import { api, ApiError } from '../../lib/api-client.ts';
import { flashToast, toast } from '../../stores/toasts.ts';
import { useSession } from '../ui/use-session.ts';
import { redirectToLogin, Spinner } from '../student/shared.tsx';
import { DocumentSlot, type SlotFile } from './DocumentSlot.tsx';
import { createDraftStore, type SyncState } from './draft-store.ts';

type Inst = { name: string; city: string; country: string; from: string; to: string; qualification: string; grade: string };
type SlotKey = typeof DOCUMENT_SLOTS[number]['key'];
interface Form {
  courseId: string; firstName: string; lastName: string; email: string; phone: string; dateOfBirth: string; nationality: string;
  addressLine1: string; addressLine2: string; city: string; state: string; postalCode: string; country: string;
  academicHistory: { highSchool: Inst; college: Inst };
  documents: Record<SlotKey, SlotFile | null>;
  payment: { paymentMethod: 'card' | 'paypal'; cardNumber: string; cardExpiry: string; cardCvc: string; cardName: string; paymentTerms: boolean };
  certification: boolean;
}
interface CourseOption { id: number; title: string; name?: string; level?: string; startDate?: string | null }
type Errors = Record<string, string>;

const emptyInst = (): Inst => ({ name: '', city: '', country: '', from: '', to: '', qualification: '', grade: '' });
const PERSONAL_KEYS = ['firstName', 'lastName', 'email', 'phone', 'dateOfBirth', 'nationality', 'addressLine1', 'addressLine2', 'city', 'state', 'postalCode', 'country'] as const;
const YEARS = Array.from({ length: YEAR_MAX - YEAR_MIN + 1 }, (_, i) => String(YEAR_MAX - i));

function emptyForm(courseId: string): Form {
  return {
    courseId, firstName: '', lastName: '', email: '', phone: '', dateOfBirth: '', nationality: '', addressLine1: '', addressLine2: '',
    city: '', state: '', postalCode: '', country: '',
    academicHistory: { highSchool: emptyInst(), college: emptyInst() },
    documents: { idDocument: null, transcripts: null, englishProficiency: null, recommendationLetter: null },
    payment: { paymentMethod: 'card', cardNumber: '', cardExpiry: '', cardCvc: '', cardName: '', paymentTerms: false },
    certification: false,
  };
}

/** Step 1 defaults from the logged-in user (spec §5). */
function fromUser(f: Form, u: PublicUser): Form {
  const pick = (v: string | null | undefined) => v ?? '';
  return {
    ...f, firstName: u.firstName, lastName: u.lastName, email: u.email, phone: pick(u.phone), dateOfBirth: pick(u.dateOfBirth),
    nationality: pick(u.nationality), addressLine1: pick(u.addressLine1), addressLine2: pick(u.addressLine2), city: pick(u.city),
    state: pick(u.state), postalCode: pick(u.postalCode), country: pick(u.country),
  };
}

/** Deep merge of a saved draft over the defaults; unknown keys are dropped. */
function merge<T>(base: T, saved: unknown): T {
  if (!saved || typeof saved !== 'object' || Array.isArray(saved) || base === null || typeof base !== 'object') {
    if (base === null) return (saved ?? null) as T;
    return (typeof saved === typeof base ? saved : base) as T;
  }
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const k of Object.keys(out)) if (k in (saved as object)) out[k] = merge(out[k], (saved as Record<string, unknown>)[k]);
  return out as T;
}

type Schemas = typeof import('../../../api/contracts/applications.ts');
let schemas: Promise<Schemas> | null = null;
/** The step schemas (and zod with them) load after first paint, not with the page (issue #5 JS budget). */
const loadSchemas = () => (schemas ??= import('../../../api/contracts/applications.ts'));

function issues(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }, prefix = ''): Errors {
  const out: Errors = {};
  for (const i of error.issues) { const k = prefix + i.path.map(String).join('.'); if (!(k in out)) out[k] = i.message; }
  return out;
}

const docIds = (f: Form) => Object.fromEntries(DOCUMENT_SLOTS.map((s) => [s.key, f.documents[s.key]?.id ?? ''])) as Record<SlotKey, string>;
const hasAny = (i: Inst) => Object.values(i).some((v) => v.trim() !== '');

/** Field errors of one step (0..4), keyed by the field path the API uses. */
function validateStep(S: Schemas, step: number, f: Form): Errors {
  const { PersonalStepSchema, AcademicStepSchema, DocumentsStepSchema, PaymentStepSchema, ReviewStepSchema } = S;
  const r = step === 0 ? PersonalStepSchema.safeParse({ courseId: f.courseId === '' ? undefined : f.courseId, ...Object.fromEntries(PERSONAL_KEYS.map((k) => [k, f[k] === '' && (k === 'nationality' || k === 'country') ? undefined : f[k]])) })
    : step === 1 ? AcademicStepSchema.safeParse({ academicHistory: { highSchool: f.academicHistory.highSchool, college: f.academicHistory.college } })
    : step === 2 ? DocumentsStepSchema.safeParse({ documents: docIds(f) })
    : step === 3 ? PaymentStepSchema.safeParse(f.payment)
    : ReviewStepSchema.safeParse({ certification: f.certification || undefined });
  return r.success ? {} : issues(r.error, step === 3 ? 'payment.' : '');
}

const stepOfField = (path: string) => path.startsWith('academicHistory') ? 1 : path.startsWith('documents') ? 2 : path.startsWith('payment') ? 3 : path === 'certification' ? 4 : 0;
const domId = (path: string) => `f-${path.replace(/\./g, '-')}`;

function getPath(obj: unknown, path: string): any { return path.split('.').reduce((o: any, k) => (o == null ? o : o[k]), obj); }
function setPath<T>(obj: T, path: string, value: unknown): T {
  const [head, ...rest] = path.split('.');
  const copy: any = Array.isArray(obj) ? [...obj] : { ...(obj as object) };
  copy[head] = rest.length ? setPath(copy[head], rest.join('.'), value) : value;
  return copy;
}

function courseIdFromPath(): string {
  const m = /^\/apply\/(\d{1,9})\/?$/.exec(window.location.pathname);
  return m ? m[1] : '';
}

export default function ApplyWizard() {
  const session = useSession();
  const [urlCourse] = useState(() => (typeof window === 'undefined' ? '' : courseIdFromPath()));
  const [form, setForm] = useState<Form>(() => emptyForm(urlCourse));
  const [step, setStep] = useState(0);
  const [errors, setErrors] = useState<Errors>({});
  const [ready, setReady] = useState(false);
  const [restored, setRestored] = useState<string | null>(null);
  const [courses, setCourses] = useState<CourseOption[] | null>(null);
  const [coursesError, setCoursesError] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [sync, setSync] = useState<SyncState>('idle');
  const [confirmReset, setConfirmReset] = useState(false);
  const submitLock = useRef(false);
  const focusPending = useRef<'error' | 'heading' | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const store = useMemo(() => (session.user ? createDraftStore(session.user.id, urlCourse ? `course-${urlCourse}` : 'general', setSync) : null), [session.user?.id, urlCourse]);

  useEffect(() => {
    if (session.isLoading) return;
    if (!session.user) redirectToLogin(true, { title: 'Authentication required', description: 'Please log in to submit an application' });
  }, [session.isLoading, session.user]);

  useEffect(() => {
    if (!session.user || !store) return;
    let cancelled = false;
    api<{ courses: CourseOption[] }>('/api/courses').then((r) => { if (!cancelled) setCourses(r.courses); }).catch(() => { if (!cancelled) { setCourses([]); setCoursesError(true); } });
    void store.load().then((draft) => {
      if (cancelled) return;
      let f = fromUser(emptyForm(urlCourse), session.user!);
      if (draft) {
        f = merge(f, draft.data);
        if (urlCourse) f.courseId = urlCourse;
        setStep(Math.min(Math.max(0, draft.step | 0), WIZARD_STEPS.length - 1));
        setRestored(draft.savedAt);
      }
      setForm(f);
      setReady(true);
      void loadSchemas();
    });
    return () => { cancelled = true; };
  }, [store]);

  // A course link that is not open for applications (unknown or inactive): ask for a course instead.
  const urlCourseUnknown = Boolean(urlCourse && courses && !courses.some((c) => String(c.id) === urlCourse));
  useEffect(() => { if (urlCourseUnknown && ready) setForm((f) => (f.courseId === urlCourse ? { ...f, courseId: '' } : f)); }, [urlCourseUnknown, ready]);

  useEffect(() => { if (ready && store) store.save(step, form as unknown as Record<string, unknown>); }, [form, step, ready, store]);

  useEffect(() => {
    if (focusPending.current === 'error') {
      const el = document.querySelector<HTMLElement>('[data-wizard] [aria-invalid="true"]');
      if (el) { el.focus(); if (el.classList.contains('sr-only')) el.closest('[data-slot]')?.scrollIntoView({ block: 'center' }); }
    } else if (focusPending.current === 'heading') headingRef.current?.focus();
    focusPending.current = null;
  });

  const set = (path: string, value: unknown) => {
    setForm((f) => setPath(f, path, value));
    if (errors[path]) setErrors((e) => { const { [path]: _drop, ...rest } = e; return rest; });
  };

  function showErrors(errs: Errors, atStep?: number) {
    setErrors(errs);
    if (atStep != null) setStep(atStep);
    focusPending.current = 'error';
  }

  async function next() {
    const errs = validateStep(await loadSchemas(), step, form);
    if (Object.keys(errs).length) return showErrors(errs);
    setErrors({});
    setStep(step + 1);
    focusPending.current = 'heading';
  }
  function previous() { setErrors({}); setStep(Math.max(0, step - 1)); focusPending.current = 'heading'; }
  function goTo(i: number) { if (i < step) { setErrors({}); setStep(i); focusPending.current = 'heading'; } }

  async function submit() {
    if (submitLock.current) return;
    submitLock.current = true;
    const S = await loadSchemas();
    for (let s = 0; s < WIZARD_STEPS.length; s++) {
      const errs = validateStep(S, s, form);
      if (Object.keys(errs).length) { submitLock.current = false; return showErrors(errs, s); }
    }
    setSubmitting(true);
    const digits = form.payment.cardNumber.replace(/\D/g, '');
    const ids = docIds(form);
    const body = {
      courseId: Number(form.courseId), ...Object.fromEntries(PERSONAL_KEYS.map((k) => [k, form[k]])),
      academicHistory: { highSchool: form.academicHistory.highSchool, ...(hasAny(form.academicHistory.college) ? { college: form.academicHistory.college } : {}) },
      documents: Object.fromEntries(Object.entries(ids).filter(([, v]) => v)),
      // Only the last four digits leave the browser; the CVC never does (DESIGN §4 Payment).
      payment: { paymentMethod: form.payment.paymentMethod, cardNumber: form.payment.paymentMethod === 'card' ? digits.slice(-4) : '', cardExpiry: form.payment.cardExpiry, cardName: form.payment.cardName, paymentTerms: form.payment.paymentTerms },
      certification: true,
      // Spec §7 payload fields; the server decides these itself.
      userId: session.user?.id, status: 'pending', paymentStatus: 'completed', paymentAmount: APPLICATION_FEE,
    };
    try {
      await api('/api/applications', { method: 'POST', json: body });
      void store?.discard();
      flashToast({ title: 'Application submitted successfully', description: 'Your application has been received and is under review.', variant: 'success' });
      window.location.assign('/dashboard/student');
    } catch (e) {
      submitLock.current = false;
      setSubmitting(false);
      const message = e instanceof ApiError ? e.userMessage : e instanceof Error ? e.message : 'Unknown error';
      toast({ title: 'Error submitting application', description: message, variant: 'destructive' });
      if (e instanceof ApiError && Object.keys(e.fields).length) {
        const first = Object.keys(e.fields)[0];
        showErrors(e.fields, stepOfField(first));
      }
    }
  }

  if (session.isLoading || !session.user) return <Spinner label={session.isLoading ? 'Checking your session…' : 'Redirecting to log in…'} />;
  if (!ready) return <Spinner label="Loading your application…" />;

  const err = (path: string) => errors[path];
  const text = (path: string, label: string, opts: { type?: string; autoComplete?: string; inputMode?: 'numeric' | 'tel' | 'email'; placeholder?: string; hint?: string; max?: string } = {}) => (
    <FieldRow path={path} label={label} error={err(path)} hint={opts.hint}>
      <input className="input" id={domId(path)} name={path} type={opts.type ?? 'text'} autoComplete={opts.autoComplete} inputMode={opts.inputMode}
        placeholder={opts.placeholder} max={opts.max} value={getPath(form, path) ?? ''} onChange={(e) => set(path, e.target.value)}
        aria-invalid={err(path) ? true : undefined} aria-describedby={describedBy(path, err(path), opts.hint)} />
    </FieldRow>
  );
  const select = (path: string, label: string, options: readonly { value: string; label: string }[], placeholder: string) => (
    <FieldRow path={path} label={label} error={err(path)}>
      <select className="input" id={domId(path)} name={path} value={getPath(form, path) ?? ''} onChange={(e) => set(path, e.target.value)}
        aria-invalid={err(path) ? true : undefined} aria-describedby={describedBy(path, err(path))}>
        <option value="">{placeholder}</option>
        {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
    </FieldRow>
  );
  const institution = (which: 'highSchool' | 'college', required: boolean) => {
    const p = `academicHistory.${which}`;
    const years = YEARS.map((y) => ({ value: y, label: y }));
    return (
      <fieldset className="rounded-md border border-slate-200 p-4 dark:border-slate-700">
        <legend className="px-1 font-semibold">{which === 'highSchool' ? 'High school' : 'College or university (optional)'}</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          {text(`${p}.name`, which === 'highSchool' ? 'School name' : 'Institution name')}
          {text(`${p}.qualification`, 'Qualification', { placeholder: which === 'highSchool' ? 'e.g. National Senior Certificate' : '' })}
          {text(`${p}.city`, 'City')}
          {text(`${p}.country`, 'Country')}
          {select(`${p}.from`, 'Start year', years, 'Select year')}
          {select(`${p}.to`, 'End year', years, 'Select year')}
          {text(`${p}.grade`, required ? 'Grade or average' : 'Grade or average', { placeholder: 'e.g. 72%' })}
        </div>
      </fieldset>
    );
  };
  const courseLabel = (id: string) => { const c = courses?.find((x) => String(x.id) === id); return c ? (c.name || c.title) : id ? `Course ${id}` : ''; };
  const urlCourseKnown = urlCourse && courses?.some((c) => String(c.id) === urlCourse);
  const countryLabel = (v: string) => COUNTRY_OPTIONS.find((o) => o.value === v)?.label ?? v;

  return (
    <div className="grid gap-8 lg:grid-cols-[16rem_1fr]" data-wizard>
      <nav aria-label="Application steps">
        <ol className="space-y-1">
          {WIZARD_STEPS.map((label, i) => {
            const state = i < step ? 'done' : i === step ? 'current' : 'todo';
            const inner = (
              <>
                <span aria-hidden="true" className={`flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-sm font-bold ${state === 'current' ? 'bg-brand-700 text-white' : state === 'done' ? 'bg-brand-100 text-brand-800' : 'bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200'}`}>{state === 'done' ? '✓' : i + 1}</span>
                <span>{label}<span className="sr-only">{state === 'done' ? ' (completed)' : state === 'todo' ? ' (not started)' : ''}</span></span>
              </>
            );
            return (
              <li key={label} aria-current={state === 'current' ? 'step' : undefined}>
                {state === 'done'
                  ? <button type="button" onClick={() => goTo(i)} className="flex w-full items-center gap-3 rounded-md px-3 py-2 text-left text-sm hover:bg-slate-100 dark:hover:bg-slate-800">{inner}</button>
                  : <span className={`flex items-center gap-3 rounded-md px-3 py-2 text-sm ${state === 'current' ? 'bg-brand-50 font-semibold dark:bg-slate-800' : 'muted'}`}>{inner}</span>}
              </li>
            );
          })}
        </ol>
        <p className="mt-4 px-3 text-xs muted" aria-live="polite" data-testid="draft-status">
          {sync === 'saving' ? 'Saving draft…' : sync === 'saved' ? 'Draft saved' : sync === 'local-only' ? 'Draft saved on this device; it will sync when you are back online.' : ''}
        </p>
      </nav>

      <form noValidate onSubmit={(e) => { e.preventDefault(); if (step === WIZARD_STEPS.length - 1) void submit(); else void next(); }} className="card p-6">
        {restored && (
          <div className="mb-4 flex flex-wrap items-center gap-2 rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-950 dark:border-blue-800 dark:bg-blue-950 dark:text-blue-50" role="status">
            <span>We restored the application you started. Continue where you left off.</span>
            {confirmReset ? (
              <span className="flex gap-2"><span>Discard the saved draft?</span>
                <button type="button" className="btn-danger px-2 py-1" onClick={() => { void store?.discard().then(() => window.location.reload()); }}>Yes, start over</button>
                <button type="button" className="btn-secondary px-2 py-1" onClick={() => setConfirmReset(false)}>Cancel</button></span>
            ) : <button type="button" className="underline" onClick={() => setConfirmReset(true)}>Start over</button>}
          </div>
        )}
        <p className="text-sm muted">Step {step + 1} of {WIZARD_STEPS.length}</p>
        <h2 ref={headingRef} tabIndex={-1} className="mb-6 text-2xl font-bold outline-none">{WIZARD_STEPS[step]}</h2>

        {step === 0 && (
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="sm:col-span-2">
              {urlCourse && urlCourseKnown ? (
                <p className="rounded-md bg-brand-50 p-3 text-sm dark:bg-slate-800" data-testid="selected-course">Applying for: <strong>{courseLabel(urlCourse)}</strong></p>
              ) : (
                <FieldRow path="courseId" label="Course" error={err('courseId')} hint={coursesError ? 'Error Loading Courses: Unable to load courses. Please try again later.' : urlCourseUnknown ? 'The course in your link is not open for applications. Please select a course.' : undefined}>
                  <select className="input" id={domId('courseId')} value={form.courseId} onChange={(e) => set('courseId', e.target.value)} disabled={!courses}
                    aria-invalid={err('courseId') ? true : undefined} aria-describedby={describedBy('courseId', err('courseId'))}>
                    <option value="">{courses ? 'Select a course' : 'Loading courses...'}</option>
                    {courses?.map((c) => <option key={c.id} value={String(c.id)}>{c.name || c.title}{c.level ? ` (${c.level})` : ''}</option>)}
                  </select>
                </FieldRow>
              )}
            </div>
            {text('firstName', 'First name', { autoComplete: 'given-name' })}
            {text('lastName', 'Last name', { autoComplete: 'family-name' })}
            {text('email', 'Email', { type: 'email', autoComplete: 'email' })}
            {text('phone', 'Phone', { type: 'tel', autoComplete: 'tel' })}
            {text('dateOfBirth', 'Date of birth', { type: 'date', autoComplete: 'bday', hint: 'YYYY-MM-DD', max: new Date().toISOString().slice(0, 10) })}
            {select('nationality', 'Nationality', COUNTRY_OPTIONS, 'Select nationality')}
            <div className="sm:col-span-2">{text('addressLine1', 'Address line 1', { autoComplete: 'address-line1' })}</div>
            <div className="sm:col-span-2">{text('addressLine2', 'Address line 2 (optional)', { autoComplete: 'address-line2' })}</div>
            {text('city', 'City', { autoComplete: 'address-level2' })}
            {text('state', 'State/Province', { autoComplete: 'address-level1' })}
            {text('postalCode', 'Postal code', { autoComplete: 'postal-code' })}
            {select('country', 'Country', COUNTRY_OPTIONS, 'Select country')}
          </div>
        )}

        {step === 1 && <div className="space-y-6">{institution('highSchool', true)}{institution('college', false)}</div>}

        {step === 2 && (
          <div className="space-y-4">
            <p className="text-sm muted">Upload each document as a PDF, DOC, DOCX, JPG, JPEG or PNG file of at most 5MB. The ID document and qualifications are required.</p>
            {DOCUMENT_SLOTS.map((s) => (
              <DocumentSlot key={s.key} slot={s.key} label={s.label} required={s.required} value={form.documents[s.key]} error={err(`documents.${s.key}`)}
                onChange={(file) => set(`documents.${s.key}`, file)}
                onDiscard={(id) => { void api(`/api/uploads/${encodeURIComponent(id)}`, { method: 'DELETE' }).catch(() => {}); }} />
            ))}
          </div>
        )}

        {step === 3 && (
          <div className="space-y-5">
            <div className="rounded-md border border-slate-200 p-4 dark:border-slate-700">
              <p className="flex justify-between font-semibold"><span>Application fee</span><span data-testid="fee">${APPLICATION_FEE}</span></p>
              <p className="mt-1 text-sm muted">The application fee is non-refundable.</p>
            </div>
            <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50" role="note">
              This is a simulated payment: no actual payment is processed in this demo.
            </p>
            <fieldset>
              <legend className="label">Payment method</legend>
              <div className="flex gap-6">
                {(['card', 'paypal'] as const).map((m) => (
                  <label key={m} className="flex items-center gap-2 text-sm">
                    <input type="radio" name="paymentMethod" value={m} checked={form.payment.paymentMethod === m} onChange={() => set('payment.paymentMethod', m)} />
                    {m === 'card' ? 'Credit or debit card' : 'PayPal'}
                  </label>
                ))}
              </div>
            </fieldset>
            {form.payment.paymentMethod === 'card' ? (
              <div className="grid gap-4 sm:grid-cols-2">
                <div className="sm:col-span-2">{text('payment.cardName', 'Name on card', { autoComplete: 'cc-name' })}</div>
                <div className="sm:col-span-2">{text('payment.cardNumber', 'Card number', { autoComplete: 'cc-number', inputMode: 'numeric', placeholder: '1234 5678 9012 3456' })}</div>
                {text('payment.cardExpiry', 'Expiry date (MM/YY)', { autoComplete: 'cc-exp', placeholder: 'MM/YY' })}
                {text('payment.cardCvc', 'CVC', { autoComplete: 'cc-csc', inputMode: 'numeric', placeholder: '123' })}
                <p className="text-xs muted sm:col-span-2">We keep only the last four digits of your card number and never store the CVC.</p>
              </div>
            ) : (
              <p className="rounded-md bg-slate-100 p-3 text-sm dark:bg-slate-800" role="note">You will be redirected to PayPal to complete your payment after you submit your application.</p>
            )}
            <Check path="payment.paymentTerms" checked={form.payment.paymentTerms} error={err('payment.paymentTerms')} onChange={(v) => set('payment.paymentTerms', v)}>
              I agree to the payment terms and understand that the ${APPLICATION_FEE} application fee is non-refundable.
            </Check>
          </div>
        )}

        {step === 4 && (
          <div className="space-y-5">
            <Review title="Personal Information" onEdit={() => goTo(0)} rows={[
              ['Course', courseLabel(form.courseId)], ['Name', `${form.firstName} ${form.lastName}`], ['Email', form.email], ['Phone', form.phone],
              ['Date of birth', form.dateOfBirth], ['Nationality', countryLabel(form.nationality)],
              ['Address', [form.addressLine1, form.addressLine2, form.city, form.state, form.postalCode, countryLabel(form.country)].filter(Boolean).join(', ')],
            ]} />
            <Review title="Academic History" onEdit={() => goTo(1)} rows={[
              ['High school', `${form.academicHistory.highSchool.name}, ${form.academicHistory.highSchool.city} (${form.academicHistory.highSchool.from}–${form.academicHistory.highSchool.to})`],
              ['Qualification', `${form.academicHistory.highSchool.qualification}, ${form.academicHistory.highSchool.grade}`],
              ...(hasAny(form.academicHistory.college) ? [['College', `${form.academicHistory.college.name} ${form.academicHistory.college.qualification}`.trim()] as [string, string]] : []),
            ]} />
            <Review title="Supporting Documents" onEdit={() => goTo(2)} rows={DOCUMENT_SLOTS.map((s) => [s.label, form.documents[s.key]?.name ?? 'Not provided'] as [string, string])} />
            <Review title="Payment" onEdit={() => goTo(3)} rows={[
              ['Application fee', `$${APPLICATION_FEE}`],
              ['Method', form.payment.paymentMethod === 'card' ? `Card${form.payment.cardNumber.replace(/\D/g, '').length >= 4 ? ` ending in ${form.payment.cardNumber.replace(/\D/g, '').slice(-4)}` : ''}` : 'PayPal'],
              ['Payment status', 'Ready to process'],
            ]} />
            <Check path="certification" checked={form.certification} error={err('certification')} onChange={(v) => set('certification', v)}>
              I certify that the information I have provided in this application is true and complete to the best of my knowledge.
            </Check>
          </div>
        )}

        <div className="mt-8 flex items-center justify-between gap-3 border-t border-slate-200 pt-6 dark:border-slate-700">
          <button type="button" className="btn-secondary" onClick={previous} disabled={step === 0 || submitting}>Previous</button>
          {step < WIZARD_STEPS.length - 1
            ? <button type="submit" className="btn-primary">Next</button>
            : <button type="submit" className="btn-primary" disabled={submitting} aria-disabled={submitting}>{submitting ? 'Submitting...' : 'Submit Application'}</button>}
        </div>
      </form>
    </div>
  );
}

function describedBy(path: string, error?: string, hint?: string): string | undefined {
  const ids = [hint && !error ? `${domId(path)}-hint` : '', error ? `${domId(path)}-error` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

function FieldRow({ path, label, error, hint, children }: { path: string; label: string; error?: string; hint?: string; children: ReactNode }) {
  return <Field id={domId(path)} label={label} error={error} hint={hint}>{children}</Field>;
}

function Check({ path, checked, error, onChange, children }: { path: string; checked: boolean; error?: string; onChange: (v: boolean) => void; children: ReactNode }) {
  const id = domId(path);
  return (
    <div>
      <div className="flex items-start gap-3">
        <input id={id} type="checkbox" className="mt-1 h-4 w-4" checked={checked} onChange={(e) => onChange(e.target.checked)}
          aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} />
        <label htmlFor={id} className="text-sm">{children}</label>
      </div>
      {error && <p id={`${id}-error`} role="alert" className="field-error">{error}</p>}
    </div>
  );
}

function Review({ title, rows, onEdit }: { title: string; rows: [string, string][]; onEdit: () => void }) {
  return (
    <section className="rounded-md border border-slate-200 p-4 dark:border-slate-700">
      <div className="flex items-center justify-between">
        <h3 className="font-semibold">{title}</h3>
        <button type="button" className="text-sm underline" onClick={onEdit} aria-label={`Edit ${title}`}>Edit</button>
      </div>
      <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_1fr]">
        {rows.map(([k, v]) => <div key={k} className="contents"><dt className="muted">{k}</dt><dd>{v || '—'}</dd></div>)}
      </dl>
    </section>
  );
}
