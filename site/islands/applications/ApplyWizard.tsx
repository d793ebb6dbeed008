/**
 * The five-step application form of spec §2 (/apply/{courseId?}): Personal Information, Academic History,
 * Supporting Documents (real uploads), Payment (simulated $50.00 fee, spec §9) and Review & Submit, one component
 * per step under apply/; steps 2–5 load with their step, the next one when the browser is idle (apply/step-loader.ts,
 * issue #17). The form is react-hook-form; each step is checked by a zodResolver with the same step
 * schemas the API uses (api/contracts/applications.ts, spec §5) and on errors focus moves to the first invalid
 * field. Logged-out visitors are sent to /login with a toast. The draft survives reloads, closed tabs and dropped
 * connections (draft-store.ts). On success: toast 'Application submitted successfully' and /dashboard/student
 * (spec §8). Issue #14 point 6: a second active application for the same course is stopped at the start
 * ('You already have an active application for this course.' with a link to it), and a submit error keeps the
 * applicant on Review & Submit with the messages listed and a way to each step — never back at step 1.
 * "Start over" also deletes the documents uploaded for the discarded draft.
 * The fee on Payment and Review is the one charged (GET /api/settings/application-fee, apply/fee.ts); ticking the
 * payment terms records it as `payment.agreedFee`, sent as `expectedFee`. When an admin changed the fee since (409
 * `fee_changed`, or a restored draft agreed to another amount), the applicant is taken to Payment with the new fee,
 * the server's message and the agreement unticked, to agree again.
 * When the draft was changed in another tab or on another device since this copy was based on it (409 from the
 * draft store), nothing is overwritten: apply/DraftConflict.tsx, loaded then, offers "Load the newer version" or
 * "Keep my changes", and Submit waits for that choice.
 * A refused submit shows the spec §8 toast 'Error submitting application' with the error text, and the focused
 * #submit-errors alert lists the messages with a way to each step; the office phone in a message (course closed) is
 * a tel: link, as on the Accepted card.
 * A link to a course that is not open (/apply/999999, or a course an admin deactivated) asks for a course and says
 * why: spec §8 'Course Not Found' once a draft save for it answered 404, the submit path's closed-course message
 * (course-link.ts) once the server keeps a draft for it. Choosing a course moves the draft to that course's key
 * (draft-store.ts moveTo) and the address to /apply/{id} ("no lost work" QA audit, 2026-11-28: the saves kept going
 * to key=course-999999, answered 404 and said 'offline', so the draft never reached the account).
 */
import { useEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import { FormProvider, useForm, type FieldErrors, type FieldPath } from 'react-hook-form';
import { DOCUMENT_SLOTS, feeChangedMessage, WIZARD_STEPS } from '#contracts/application-steps.ts';
import { api, ApiError, READ_TIMEOUT_MS } from '../../lib/api-client.ts';
import { flashToast, toast } from '../../stores/toasts.ts';
import { useSession } from '../ui/use-session.ts';
import { Spinner } from '../ui/Spinner.tsx';
import { redirectToLogin } from '../auth/redirect-to-login.ts';
import { saveApi } from '../ui/save-api.ts';
import { useOnline } from '../ui/use-online.ts';
import { telephone } from '../../../content/site.json';
import { useStepHistory } from '../ui/use-step-history.ts';
import { isNetworkError, recall, remember } from '../../lib/offline-snapshot.ts';
import { createDraftStore, draftPath, readServerDraft, type Draft, type ServerDraftAnswer, type SyncState } from './draft-store.ts';
import { startRead, takeRead } from '../../lib/early-reads.ts';
import { emptyForm, firstErrorPath, fromUser, LAST_STEP, mergeDraft, preloadSchemas, stepOfField, stepResolver, submitBody, type ApplyForm, type CourseOption, type SlotKey } from './apply/form.ts';
import { PersonalStep } from './apply/PersonalStep.tsx';
import { loadStep, prefetchStep, stepComponent } from './apply/step-loader.ts';
import { RestoredNotice, StepNav } from './apply/StepNav.tsx';
import { useApplicationFee, type ShownFee } from './apply/fee.ts';
import { BusyButton } from '../ui/BusyButton.tsx';
import { COURSE_NOT_FOUND, courseClosedText } from './apply/course-link.ts';

const DUPLICATE = 'You already have an active application for this course.';
/** The document of each slot as a step error names it ('ID document is required', api/contracts/applications.ts). */
const SLOT_NAMES: Record<SlotKey, string> = { idDocument: 'ID document is', transcripts: 'Qualifications documents are', englishProficiency: 'Matric statements are', recommendationLetter: 'CV or resume is' };
/** A slot whose upload has not finished (a phone offline mid-upload): not missing, but not there yet either. */
const stillUploading = (slot: SlotKey) => `${SLOT_NAMES[slot]} still uploading. Wait for it to finish, or stay on this page until you are back online.`;

/** Deletes the uploads a discarded draft refers to ("Start over"); the server keeps any that an application uses (409). */
async function discardDraftUploads(values: ApplyForm): Promise<void> {
  const ids = Object.values((values as unknown as { documents?: Record<string, unknown> }).documents ?? {})
    .map((d) => (typeof d === 'string' ? d : d && typeof d === 'object' ? (d as { id?: string }).id : undefined))
    .filter((id): id is string => typeof id === 'string' && /^[A-Za-z0-9_-]{10,64}$/.test(id));
  await Promise.all(ids.map((id) => api(`/api/uploads/${encodeURIComponent(id)}`, { method: 'DELETE' }).catch(() => {})));
}

/** One of the applicant's applications, as the duplicate check needs it. */
type MyApplication = { id: number; courseId: number; status: string };
const MINE_PATH = '/api/applications?mine=1';

/**
 * After a submission that got no answer (network failure or time-out): whether the server stored it anyway — an
 * active application for `courseId` whose id is not among `known` (the ones listed before submitting) is in My
 * Applications. True or false from that list; null when the list cannot be read either (the caller then says it
 * could not confirm, rather than 'not submitted', whose retry the server would refuse as a duplicate).
 */
async function submissionArrived(courseId: string, known: number[]): Promise<boolean | null> {
  try {
    const r = await api<{ applications: MyApplication[] }>(MINE_PATH, { timeoutMs: READ_TIMEOUT_MS, cache: 'no-store' });
    return r.applications.some((a) => String(a.courseId) === courseId && a.status !== 'rejected' && !known.includes(a.id));
  } catch { return null; }
}
const NSC_PATH = '/api/profile/nsc-results';
const coursePath = (urlCourse: string) => (urlCourse ? `/api/courses/${urlCourse}` : '/api/courses');
/** The server draft's key for this wizard: one per linked course, else 'general'. */
const draftKeyFor = (urlCourse: string) => (urlCourse ? `course-${urlCourse}` : 'general');

/**
 * How the wizard reads each of its first GETs, by path: the course (GET /api/courses/{id}, or the list), the
 * applicant's applications, the NSC results saved in the profile and the server draft. The mount effect starts the
 * ones the page needs before the session check answers (lib/early-reads.ts); the load effect takes them.
 */
function firstReads(urlCourse: string): Record<string, () => Promise<unknown>> {
  const list = coursePath('');
  return {
    [coursePath(urlCourse)]: () => api(coursePath(urlCourse), { timeoutMs: READ_TIMEOUT_MS }),
    [list]: () => api(list, { timeoutMs: READ_TIMEOUT_MS }),
    [MINE_PATH]: () => api(MINE_PATH),
    [NSC_PATH]: () => api(NSC_PATH, { timeoutMs: READ_TIMEOUT_MS }),
    [draftPath(draftKeyFor(urlCourse))]: () => readServerDraft(draftKeyFor(urlCourse)),
  };
}
/** The conflict choice (apply/DraftConflict.tsx), fetched the first time a conflict happens (issue #17: /apply JS). */
type ConflictProps = { savedAt: string; step: number; onLoadTheirs: () => void; onKeepMine: () => void };
const loadConflictUI = () => import('./apply/DraftConflict.tsx').then((m) => m.DraftConflict as ComponentType<ConflictProps>);

/** The first read of `path` (firstReads): the one started at mount, else a new one. */
const firstRead = <T,>(urlCourse: string, path: string): Promise<T> => takeRead(path, firstReads(urlCourse)[path] as () => Promise<T>);

/**
 * The courses the wizard offers: for /apply/{id}, only that course when it is open (GET /api/courses/{id}; the
 * page shows no course list then, issue #17: about 8 KB less than the whole catalogue); else, or when the linked
 * course is not open (404), every open course (GET /api/courses). Network errors are thrown.
 */
async function loadCourses(urlCourse: string): Promise<CourseOption[]> {
  if (urlCourse) {
    try {
      return [(await firstRead<{ course: CourseOption }>(urlCourse, coursePath(urlCourse))).course];
    } catch (e) { if (!(e instanceof ApiError && e.status === 404)) throw e; }
  }
  return (await firstRead<{ courses: CourseOption[] }>(urlCourse, coursePath(''))).courses;
}

function courseIdFromPath(): string {
  const m = /^\/apply\/(\d{1,9})\/?$/.exec(window.location.pathname);
  return m ? m[1] : '';
}

/** Shown while offline (issue #16 point 4): the work is kept, only sending waits. */
const OFFLINE_TEXT = 'You are offline. You can keep filling in your application; it is saved on this device. Submission waits for a connection.';
/** Shown when a step's code is not on this device and there is no connection to fetch it (issue #16: the draft is kept). */
const STEP_OFFLINE_TEXT = 'This step needs a connection to open the first time. Your application is saved on this device; the step opens when you are back online.';
/** Shown when a step's code fails to load online: the site was deployed or rebuilt since the page loaded (its chunk names changed). */
const STEP_UPDATED_TEXT = 'The site was updated. Reload to continue — your answers are kept.';

/** The loaded component of step `step` (1–4) with the step's props, or nothing while its code is loading. */
function StepBody({ step, ...props }: { step: number; courses?: CourseOption[] | null; onEdit?: (step: number) => void; fee?: ShownFee; feeNotice?: string | null; onUploading?: (slot: SlotKey, uploading: boolean) => void }) {
  const C = stepComponent(step);
  return C ? <C {...props} /> : null;
}

export default function ApplyWizard() {
  const session = useSession();
  const [urlCourse] = useState(() => (typeof window === 'undefined' ? '' : courseIdFromPath()));
  const [step, setStepState] = useState(0);
  // The resolver reads the step at validation time, so it sees a step change at once (not one render later).
  const stepRef = useRef(0);
  const setStep = (s: number) => { stepRef.current = s; setStepState(s); };
  const [ready, setReady] = useState(false);
  const [restored, setRestored] = useState<string | null>(null);
  const [courses, setCourses] = useState<CourseOption[] | null>(null);
  const [coursesError, setCoursesError] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const online = useOnline();
  const [sync, setSyncState] = useState<SyncState>('idle');
  // The link's course when it is not open: 'closed' once the server keeps a draft for it (it keeps them only for courses
  // that exist), 'unknown' once a draft save for it answered 404; '' until then, and for a course chosen instead.
  const [linkCourse, setLinkCourse] = useState<'' | 'closed' | 'unknown'>('');
  const lastSync = useRef<SyncState>('idle');
  const movedFromLink = useRef(false);
  const setSync = (s: SyncState) => {
    if (!movedFromLink.current && (s === 'no-course' || (s === 'saved' && lastSync.current === 'saving'))) setLinkCourse(s === 'saved' ? 'closed' : 'unknown');
    lastSync.current = s;
    setSyncState(s);
  };
  // The server's copy when it and this one went separate ways (another tab or device), until the person chooses.
  const [conflict, setConflict] = useState<Draft | null>(null);
  const [ConflictUI, setConflictUI] = useState<ComponentType<ConflictProps> | null>(null);
  const profileNsc = useRef<ApplyForm['academicHistory']['nscResults']>([]);
  const [confirmReset, setConfirmReset] = useState(false);
  const [mine, setMine] = useState<MyApplication[]>([]);
  // `courses`: the course closed meanwhile (409 course_closed), so the entry links to the catalogue.
  const [submitErrors, setSubmitErrors] = useState<{ path: string; message: string; step: number; courses?: boolean }[]>([]);
  // The submission's answer was lost and My Applications could not be read either: it may or may not have arrived.
  const [unconfirmed, setUnconfirmed] = useState(false);
  const [, rerender] = useState(0);
  const [stepMissing, setStepMissing] = useState<'' | 'offline' | 'updated'>('');
  const submitLock = useRef(false);
  // The document slots with an upload under way (Supporting Documents), in the order they started.
  const uploading = useRef(new Set<SlotKey>());
  const onUploading = (slot: SlotKey, on: boolean) => { if (on) uploading.current.add(slot); else uploading.current.delete(slot); };
  const focusPending = useRef<'error' | 'heading' | 'fee' | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const resolver = useMemo(() => stepResolver(() => stepRef.current), []);
  const form = useForm<ApplyForm>({ defaultValues: emptyForm(urlCourse), resolver, shouldFocusError: false, shouldUnregister: false });
  const { reset, getValues, setValue, setError, clearErrors, watch, handleSubmit } = form;
  const store = useMemo(() => (session.user ? createDraftStore(session.user.id, draftKeyFor(urlCourse), setSync, setConflict) : null), [session.user?.id, urlCourse]);
  // A store replaced (another user) or unmounted stops its timers, retries and listeners (draft-store.ts dispose).
  useEffect(() => () => store?.dispose(), [store]);
  const [fee, refreshFee] = useApplicationFee(session.user?.id, online);
  const feeRef = useRef(fee);
  feeRef.current = fee;
  const [feeNotice, setFeeNotice] = useState<string | null>(null);

  // The first reads go out with the session check, not after it: one round trip less before the form (issue #17).
  useEffect(() => {
    const reads = firstReads(urlCourse);
    for (const path of [coursePath(urlCourse), MINE_PATH, NSC_PATH, draftPath(draftKeyFor(urlCourse))]) startRead(path, reads[path]!);
  }, []);

  useEffect(() => {
    if (session.isLoading || session.error === 'offline') return;
    if (!session.user) redirectToLogin(true, { title: 'Authentication required', description: 'Please log in to submit an application' });
  }, [session.isLoading, session.user]);

  useEffect(() => {
    if (!session.user || !store) return;
    let cancelled = false;
    const userId = session.user.id;
    // Answers that come before the form shows are applied with it, in one render rather than one each (issue #17:
    // blocking time); after that, each as it comes.
    let held: (() => void)[] | null = [];
    const apply = (update: () => void) => { if (cancelled) return; if (held) held.push(update); else update(); };
    // Offline the course list is the last-known one, so a course chosen earlier stays chosen (issue #16 point 4).
    const key = urlCourse ? `course-${urlCourse}` : 'courses';
    loadCourses(urlCourse)
      .then((list) => { remember(key, userId, list); apply(() => setCourses(list)); })
      .catch((e) => {
        const last = isNetworkError(e) ? recall<CourseOption[]>(key, userId) ?? recall<CourseOption[]>('courses', userId) : null;
        apply(() => { if (last) setCourses(last.data); else { setCourses([]); setCoursesError(true); } });
      });
    firstRead<{ applications: MyApplication[] }>(urlCourse, MINE_PATH)
      .then((r) => apply(() => setMine(r.applications))).catch(() => { /* the server refuses a duplicate anyway */ });
    // The NSC results saved in the profile (issue #18) start a new application; a draft keeps its own.
    const saved = firstRead<{ nscResults: ApplyForm['academicHistory']['nscResults'] }>(urlCourse, NSC_PATH).then((r) => r.nscResults, () => []);
    const readDraft = () => firstRead<ServerDraftAnswer>(urlCourse, draftPath(draftKeyFor(urlCourse))).then((r) => { if (r?.draft) setLinkCourse('closed'); return r; });
    void Promise.all([store.load(readDraft), saved]).then(([draft, nscResults]) => {
      if (cancelled) return;
      profileNsc.current = nscResults.map((r) => ({ subject: r.subject, percent: String(r.percent), name: r.name ?? '' }));
      for (const update of held ?? []) update();
      held = null;
      if (draft) setRestored(draft.savedAt);
      show(draft);
      setReady(true);
      preloadSchemas();
    });
    return () => { cancelled = true; };
  }, [store]);

  // The current step's code (steps 2–5 are loaded on demand, issue #17) and, when the browser is idle, the next
  // step's, so Next opens it at once and it is cached should the connection drop (issue #16: no lost work).
  useEffect(() => {
    if (!ready) return;
    let cancelled = false;
    setStepMissing('');
    // Only a step whose code was missing needs a render once it loads (each is a render of the whole form).
    const missing = step > 0 && !stepComponent(step);
    loadStep(step).then(() => { if (!cancelled) { if (missing) rerender((n) => n + 1); prefetchStep(step + 1); } }, () => { if (!cancelled) setStepMissing(navigator.onLine ? 'updated' : 'offline'); });
    return () => { cancelled = true; };
  }, [step, ready, online]);

  // A course link that is not open for applications (unknown or inactive): ask for a course instead.
  // Only a list the server sent can say so: without one (offline, error) the course from the link is kept.
  const urlCourseUnknown = Boolean(urlCourse && courses && !coursesError && !courses.some((c) => String(c.id) === urlCourse));
  useEffect(() => { if (urlCourseUnknown && ready && getValues('courseId') === urlCourse) setValue('courseId', ''); }, [urlCourseUnknown, ready]);
  const linkUnknown = useRef(false);
  linkUnknown.current = urlCourseUnknown;

  // Every change and every step move is saved as the draft (the store debounces the server copy).
  useEffect(() => {
    if (!ready || !store) return;
    store.save(step, getValues() as unknown as Record<string, unknown>);
    const sub = watch((values, { name }) => {
      // The fee the applicant agreed to is the one on screen when they ticked the payment terms.
      if (name === 'payment.paymentTerms') {
        const agreed = values.payment?.paymentTerms ? feeRef.current.fee ?? '' : '';
        if (values.payment?.agreedFee !== agreed) { setValue('payment.agreedFee', agreed); return; }
      }
      // A course chosen instead of the link's: the draft is kept under its key from now on, and the address names it
      // (a reload resumes it there).
      // Only when it moved (not in a conflict, nor after discard): else a reload would open a key the draft is not under.
      if (name === 'courseId' && linkUnknown.current && values.courseId && store.moveTo(draftKeyFor(values.courseId))) {
        movedFromLink.current = true;
        history.replaceState(history.state, '', `/apply/${values.courseId}`);
      }
      store.save(stepRef.current, values as Record<string, unknown>);
    });
    return () => sub.unsubscribe();
  }, [step, ready, store]);

  useEffect(() => {
    if (focusPending.current === 'error') {
      const el = document.querySelector<HTMLElement>('[data-wizard] [aria-invalid="true"]');
      if (!el) return;
      // A slot's file input is disabled while it uploads: its progress takes the focus instead.
      const target = el.matches(':disabled') ? el.closest('[data-slot]')?.querySelector<HTMLElement>('[data-upload-progress]') ?? el : el;
      target.focus();
      if (el.classList.contains('sr-only')) el.closest('[data-slot]')?.scrollIntoView({ block: 'center' });
    } else if (focusPending.current === 'heading') headingRef.current?.focus();
    else if (focusPending.current === 'fee') {
      const notice = document.querySelector<HTMLElement>('[data-testid="fee-changed"]');
      if (!notice) return;
      notice.focus();
    }
    focusPending.current = null;
  });

  /** Puts `draft` (or a new application) on screen at its step, and tells the store this is what is shown (not a change to save). */
  function show(draft: Draft | null) {
    let f = fromUser(emptyForm(urlCourse), session.user!);
    f.academicHistory.nscResults = profileNsc.current;
    const to = draft ? Math.min(Math.max(0, draft.step | 0), LAST_STEP) : 0;
    if (draft) {
      f = mergeDraft(f, draft.data);
      if (urlCourse) f.courseId = urlCourse;
      setStep(to);
    }
    // Before and after reset: its watchers may see the form before getValues() does.
    store?.shown(to, f as unknown as Record<string, unknown>);
    reset(f);
    store?.shown(to, getValues() as unknown as Record<string, unknown>);
  }

  // The conflict choice's code is fetched when a conflict first happens (again once back online, should that fail).
  useEffect(() => {
    if (conflict && !ConflictUI) loadConflictUI().then((C) => setConflictUI(() => C), () => {});
  }, [conflict, online]);

  const resolved = () => { setConflict(null); clearErrors(); focusPending.current = 'heading'; };
  const loadTheirs = () => { const theirs = store?.takeTheirs(); if (theirs) { show(theirs); resolved(); } };
  const keepMine = () => { store?.keepMine(stepRef.current, getValues() as unknown as Record<string, unknown>); resolved(); };

  const focusFirstError = () => { focusPending.current = 'error'; rerender((n) => n + 1); };

  const move = (to: number) => { clearErrors(); setStep(to); focusPending.current = 'heading'; };
  // While a submission is on its way the step stays Review & Submit, where its answer is shown ("no lost work" audit).
  const goTo = (i: number) => { if (i < step && !submitLock.current) move(i); };

  /** The fee is now `current`, not the one the applicant agreed to: untick the agreement and say so on Payment. */
  function askToAgreeAgain(current: string, message = feeChangedMessage(current)) {
    setValue('payment.paymentTerms', false);
    setValue('payment.agreedFee', '');
    setFeeNotice(message);
    if (stepRef.current === LAST_STEP) { move(LAST_STEP - 1); focusPending.current = 'fee'; }
  }

  // A restored draft agreed to another fee than the one charged now (an admin changed it meanwhile): ask again.
  useEffect(() => {
    if (!ready || fee.source !== 'server' || !fee.fee) return;
    const { paymentTerms, agreedFee } = getValues('payment');
    if (paymentTerms && agreedFee && agreedFee !== fee.fee) askToAgreeAgain(fee.fee);
  }, [ready, fee.fee, fee.source]);

  /**
   * On Supporting Documents, a slot still uploading holds the step: its error says so (rather than 'is required', or
   * nothing for a replacement or an optional document, whose upload would be lost on leaving) and true is returned.
   */
  function heldByUploads(): boolean {
    if (stepRef.current !== 2 || uploading.current.size === 0) return false;
    for (const s of DOCUMENT_SLOTS) if (uploading.current.has(s.key)) setError(`documents.${s.key}`, { type: 'uploading', message: stillUploading(s.key) });
    return true;
  }

  function onInvalid(errors: FieldErrors<ApplyForm>) {
    if (heldByUploads()) return focusFirstError();
    const first = firstErrorPath(errors);
    if (first && stepOfField(first) !== stepRef.current) setStep(stepOfField(first));
    focusFirstError();
  }

  const activeFor = (courseId: string) => mine.find((a) => String(a.courseId) === courseId && a.status !== 'rejected');

  // The browser's Back is Previous; its Forward is Next, with the same checks (use-step-history.ts).
  // During a submission the entry is restored and the step kept (its answer, an error box, shows on Review & Submit).
  useStepHistory('applyStep', step, ready, (to) => {
    if (submitLock.current) return false;
    if (to < stepRef.current) { move(to); return true; }
    return form.trigger().then((ok) => {
      if (heldByUploads()) { focusFirstError(); return false; }
      if (ok && !(stepRef.current === 0 && activeFor(getValues('courseId')))) { move(to); return true; }
      if (ok) setError('courseId', { type: 'duplicate', message: DUPLICATE });
      focusFirstError();
      return false;
    });
  });

  async function onValid() {
    if (stepRef.current === 0 && activeFor(getValues('courseId'))) {
      setError('courseId', { type: 'duplicate', message: DUPLICATE });
      return focusFirstError();
    }
    if (heldByUploads()) return focusFirstError();
    if (stepRef.current < LAST_STEP) return move(stepRef.current + 1);
    // Which version to send is the person's choice, not the last tab's.
    if (conflict) { document.querySelector<HTMLElement>('[data-testid="draft-conflict"]')?.focus(); return; }
    setSubmitErrors([]);
    setUnconfirmed(false);
    if (submitLock.current) return;
    if (!navigator.onLine) { toast({ title: 'You are offline', description: OFFLINE_TEXT, variant: 'destructive' }); return; }
    submitLock.current = true;
    setSubmitting(true);
    const submitted = () => {
      void store?.discard();
      flashToast({ title: 'Application submitted successfully', description: 'Your application has been received and is under review.', variant: 'success' });
      window.location.assign('/dashboard/student');
    };
    const values = getValues();
    const known = mine.map((a) => a.id);
    try {
      await saveApi('/api/applications', { method: 'POST', json: submitBody(values, session.user?.id, values.payment.agreedFee || fee.fee || undefined) });
      submitted();
    } catch (e) {
      // No answer is not a no: the server may have stored it and the answer been lost (a phone's connection dropping).
      const arrived = isNetworkError(e) ? await submissionArrived(values.courseId, known) : false;
      if (arrived) { submitted(); return; }
      submitLock.current = false;
      setSubmitting(false);
      // The answer is shown on Review & Submit, should the applicant have left it meanwhile (fee_changed moves on to Payment).
      if (stepRef.current !== LAST_STEP) setStep(LAST_STEP);
      if (arrived === null) {
        setUnconfirmed(true);
        requestAnimationFrame(() => document.getElementById('submit-errors')?.focus());
        return;
      }
      if (e instanceof ApiError && e.status === 409 && e.body?.error?.code === 'fee_changed') {
        // Nothing was stored: show the new fee on Payment with the server's message, to be agreed to again.
        const now = await refreshFee();
        askToAgreeAgain(now.fee ?? '', e.userMessage);
        toast({ title: 'The application fee changed', description: e.userMessage, variant: 'destructive' });
        return;
      }
      const message = e instanceof ApiError ? e.userMessage : e instanceof Error ? e.message : 'Unknown error';
      toast({ title: 'Error submitting application', description: message, variant: 'destructive' });
      // Stay on Review & Submit: list what the server refused, each with a way to its step.
      const fields = e instanceof ApiError ? Object.entries(e.fields) : [];
      for (const [path, msg] of fields) setError(path as FieldPath<ApplyForm>, { type: 'server', message: msg });
      // A course closed meanwhile (409 course_closed): the server's message says the answers are kept (the draft is
      // only discarded after a submit succeeds) and the entry links to the catalogue.
      const closed = e instanceof ApiError && e.body?.error?.code === 'course_closed';
      setSubmitErrors(fields.length ? fields.map(([path, msg]) => ({ path, message: msg, step: stepOfField(path) })) : [{ path: '', message, step: LAST_STEP, courses: closed }]);
      if (e instanceof ApiError && e.status === 409) void api<{ applications: MyApplication[] }>(MINE_PATH).then((r) => setMine(r.applications)).catch(() => {});
      focusPending.current = null;
      requestAnimationFrame(() => document.getElementById('submit-errors')?.focus());
    }
  }

  if (!session.isLoading && !session.user && session.error === 'offline') {
    return <p role="status" data-testid="offline-notice" className="rounded-md bg-amber-100 p-3 text-sm text-amber-950 dark:bg-amber-900 dark:text-amber-50">You are offline, and this device has not kept your sign-in. Please open this page again when you have a connection.</p>;
  }
  if (session.isLoading || !session.user) return <Spinner label={session.isLoading ? 'Checking your session…' : 'Redirecting to log in…'} />;
  if (!ready) return <Spinner label="Loading your application…" />;
  const existing = urlCourse ? activeFor(urlCourse) : undefined;
  if (existing) {
    return (
      <div className="card p-6" role="status">
        <h2 className="text-xl font-bold">{DUPLICATE}</h2>
        <p className="mt-2 muted">You can follow it, add documents when they are asked for, or apply for another course.</p>
        <div className="mt-4 flex flex-wrap gap-3">
          <a className="btn-primary" href={`/applications/${existing.id}`}>View your application (APP-{existing.id})</a>
          <a className="btn-secondary" href="/courses">Browse other courses</a>
        </div>
      </div>
    );
  }

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-8 lg:grid-cols-[16rem_minmax(0,1fr)] @max-md:gap-4" data-wizard>
      <StepNav step={step} sync={sync} onGoTo={goTo} onLogInAgain={() => store?.logInAgain()} />
      <FormProvider {...form}>
        {/* Below 28rem (StepNav.tsx) the card's top and bottom padding stay phone-sized (its sides: global.css, .card below 20em). */}
        <form noValidate onSubmit={handleSubmit(onValid, onInvalid)} className="card p-6 @max-md:py-4">
          {conflict && ConflictUI && <ConflictUI savedAt={conflict.savedAt} step={conflict.step} onLoadTheirs={loadTheirs} onKeepMine={keepMine} />}
          {restored && <RestoredNotice confirming={confirmReset} onAsk={() => setConfirmReset(true)} onCancel={() => setConfirmReset(false)}
            onDiscard={() => { void discardDraftUploads(getValues()).then(() => store?.discard()).then(() => window.location.reload()); }} />}
          {!online && <p role="status" data-testid="offline-notice" className="mb-4 rounded-md bg-amber-100 p-3 text-sm text-amber-950 dark:bg-amber-900 dark:text-amber-50">{OFFLINE_TEXT}</p>}
          {/* Shown by the folded step list's button instead where that is shown (StepNav.tsx); still the heading's description. */}
          <p id="wizard-step-position" className="text-sm muted @max-md:sr-only">Step {step + 1} of {WIZARD_STEPS.length}</p>
          {/* The heading takes the focus on every step change; its description says where the applicant is (screen-reader audit). */}
          <h2 ref={headingRef} tabIndex={-1} aria-describedby="wizard-step-position" className="mb-6 text-2xl font-bold outline-none @max-md:mb-3">{WIZARD_STEPS[step]}</h2>

          {step === 0 && <PersonalStep urlCourse={urlCourse} courses={courses} coursesError={coursesError}
            linkNotice={linkCourse === 'closed' ? <PhoneLinked text={courseClosedText(telephone)} /> : linkCourse ? COURSE_NOT_FOUND : undefined} />}
          {step > 0 && !stepComponent(step) && (stepMissing
            ? <p role="status" data-testid="step-unavailable" className="rounded-md bg-amber-100 p-3 text-sm text-amber-950 dark:bg-amber-900 dark:text-amber-50">{stepMissing === 'updated'
              ? <>{STEP_UPDATED_TEXT} <button type="button" className="btn-secondary ml-2" onClick={() => location.reload()}>Reload</button></>
              : STEP_OFFLINE_TEXT}</p>
            : <Spinner label="Loading this step…" />)}
          {step === 1 && <StepBody step={step} />}
          {step === 2 && <StepBody step={step} onUploading={onUploading} />}
          {step === 3 && <StepBody step={step} fee={fee} feeNotice={feeNotice} />}
          {step === 4 && unconfirmed && (
            <div id="submit-errors" tabIndex={-1} role="alert" className="mb-6 rounded border border-amber-400 bg-amber-50 p-4 text-sm outline-none dark:border-amber-700 dark:bg-amber-950">
              We couldn't confirm that your application arrived. Check <a className="underline" href="/my-applications">My Applications</a> before trying again.
            </div>
          )}
          {step === 4 && submitErrors.length > 0 && (
            <div id="submit-errors" tabIndex={-1} role="alert" className="mb-6 rounded border border-red-300 bg-red-50 p-4 text-sm outline-none dark:border-red-800 dark:bg-red-950">
              <p className="font-semibold">Your application was not submitted.</p>
              <ul className="mt-2 space-y-1">
                {submitErrors.map((x) => (
                  <li key={x.path || x.message}>
                    <PhoneLinked text={x.message} />
                    {x.message === DUPLICATE && activeFor(getValues('courseId')) ? <> <a className="underline" href={`/applications/${activeFor(getValues('courseId'))!.id}`}>View it</a></> : null}
                    {x.courses && <> <a className="underline" href="/courses">Browse courses</a></>}
                    {x.step < LAST_STEP && <> <button type="button" className="underline" onClick={() => move(x.step)}>Go to {WIZARD_STEPS[x.step]}</button></>}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {step === 4 && <StepBody step={step} courses={courses} onEdit={goTo} fee={fee} />}

          <div className="mt-8 flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-6 dark:border-slate-700">
            <button type="button" className="btn-secondary" onClick={() => move(Math.max(0, step - 1))} disabled={step === 0 || submitting}>Previous</button>
            {step < LAST_STEP
              ? <button type="submit" className="btn-primary">Next</button>
              : <BusyButton type="submit" className="btn-primary whitespace-normal text-center" busy={submitting} unavailable={!online}>{submitting ? 'Submitting...' : online ? 'Submit Application' : 'Waiting for a connection…'}</BusyButton>}
          </div>
        </form>
      </FormProvider>
    </div>
  );
}

/** `text` with the college's office phone (content/site.json), wherever it appears, as a tel: link. */
function PhoneLinked({ text }: { text: string }) {
  const parts = text.split(telephone);
  return <>{parts.map((part, i) => <span key={i}>{part}{i < parts.length - 1 && <a className="underline" href={`tel:${telephone.replace(/\s/g, '')}`}>{telephone}</a>}</span>)}</>;
}
