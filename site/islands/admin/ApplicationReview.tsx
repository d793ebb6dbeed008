/**
 * The admin's detail panel of one application (spec §2 Applications; issue #6): applicant, academic history with
 * NSC results and eligibility, documents reviewed one by one (issue #16), payment, a status select over all six
 * statuses with internal notes and a Reject button, and the status history. The status control sits in a decision bar
 * at the bottom of the panel, with Previous/Next to the neighbouring rows of the list (audit C item 4: a day's queue
 * without scrolling 1,300 px and closing the panel for each one). It is sticky where there is room (640 px wide or
 * 800 px tall); on a smaller phone, or with its keyboard open, it would cover 40 % or all of the screen, so there it
 * stays at the panel's end, as it does when large text makes it taller than 40% of the window; where it is
 * sticky the panel scrolls a focused element clear of it (useDecisionBarClearance). A decision is confirmed first
 * (decisionQuestion): a reject, an accept (naming required documents rejected or missing), a move to Payment Pending
 * that takes a paid fee out of "Fees collected", and any change of an application that is already accepted or rejected.
 * On a decided (accepted or rejected) application the documents can still be verified or rejected, for the record; a
 * note above them says the applicant is not asked for a new file and cannot send one (the API refuses it, 409).
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactElement, type ReactNode, type RefObject } from 'react';
import { APPLICATION_STATUSES, statusLabel } from '#contracts/statuses.ts';
import { FILTER_GROUPS } from '#contracts/application-steps.ts';
import type { AdminApplicationDetail } from '#contracts/admin.ts';
import type { Checklist } from '#contracts/document-reviews.ts';
import { api, ApiError } from '../../lib/api-client.ts';
import { saveApi } from '../ui/save-api.ts';
import { toast } from '../../stores/toasts.ts';
import { appRef, countryName, formatMoney, formatStaffDate, formatStaffDateTime } from '../../lib/format.ts';
import { formatPhone } from '../../lib/phone.ts';
import DocumentReviews from './DocumentReviews.tsx';
import { useConfirm, type ConfirmOptions } from './ConfirmDialog.tsx';
import { usePanelFocusHome, usePanelUnsaved } from './Panel.tsx';
import { ErrorState } from '../ui/ErrorState.tsx';
import { SkeletonRows } from '../ui/SkeletonRows.tsx';
import { StatusBadge } from '../ui/StatusBadge.tsx';
import { EligibilityBadge, NscResultsList } from './EligibilityBadge.tsx';

// What a failed save says when the server was never reached (audit C item 5): one sentence with the course and announcement saves.
import { NOT_REACHED, notReached } from './save-failure.ts';

/**
 * The description of an 'Update failed' toast for error `e`: the server's message, or NOT_REACHED when no working
 * server answered (notReached: no answer, 502/503/504, a proxy's page; it showed "API Error (502): <html>…").
 */
export const failureText = (e: unknown): string => (e instanceof ApiError && !notReached(e) ? e.userMessage : NOT_REACHED);

/**
 * PUT /api/admin/applications/:id/status with `notes` (internal) and `expected`, the status the admin's screen shows;
 * toasts 'Application updated' or 'Update failed' (spec §8) and answers whether it worked. A note saved with the
 * status unchanged toasts 'Application updated' (spec §8) with 'APP-6: your note is saved.': nothing changed for the applicant. When someone changed the
 * status meanwhile the API answers 409 ('This application is now … Reload to see the latest.'): that message is
 * toasted and `onStale` runs, so the caller shows the current state. A failure toast stays until closed; one that
 * never reached the server says so (NOT_REACHED). Never throws.
 */
export async function changeStatus(id: number, status: string, notes: string, expected: string, onStale?: () => void): Promise<boolean> {
  try {
    await saveApi(`/api/admin/applications/${id}/status`, { method: 'PUT', json: { status, notes, expectedStatus: expected } });
    if (status === expected) toast({ title: 'Application updated', description: `${appRef(id)}: your note is saved.`, variant: 'success' });
    else toast({ title: 'Application updated', description: `${appRef(id)} is now ${statusLabel(status)}.`, variant: 'success' });
    return true;
  } catch (e) {
    toast({ title: 'Update failed', description: failureText(e), variant: 'destructive', persist: true });
    if (e instanceof ApiError && e.status === 409) onStale?.();
    return false;
  }
}

/**
 * What the panel knows that a decision puts at stake: `paidFee`, the fee 'NNN.NN' recorded as paid (application and
 * latest payment completed, from the server); `documentProblems`, the required document slots not in order, in
 * words ('ID Document was rejected'); `documentsUnknown` when the documents could not be checked.
 */
export interface DecisionFacts { paidFee?: string | null; documentProblems?: string[]; documentsUnknown?: boolean }

/**
 * The required document slots of `checklist` (GET /api/applications/{id}/checklist) that are rejected or missing, in
 * plain words: ['ID Document was rejected', 'Qualifications Documents is missing']. Empty when all are in.
 */
export function requiredDocumentProblems(checklist: Checklist): string[] {
  return checklist.items.filter((i) => i.required && (i.state === 'rejected' || i.state === 'missing'))
    .map((i) => `${i.label} ${i.state === 'rejected' ? 'was rejected' : 'is missing'}`);
}

/**
 * The question to ask before application `id` goes from status `from` to `to`, or null when none is needed (audit C
 * item 2: a final decision is not reversed, nor an acceptance made, with one click). Asked when `from` is accepted or
 * rejected ('APP-61 was Accepted. Change it to Pending?'), when `to` is rejected (issue #14 point 7) and when `to`
 * is accepted, naming `facts.documentProblems` (admin day audit: an accept over a rejected ID Document read as any
 * other). Asked too when `to` is payment_pending and `facts.paidFee` is set: the fee leaves "Fees collected" until the
 * application leaves Payment Pending (README "Payment pending"). Every status change e-mails the student
 * (applications.service setApplicationStatus). Amounts as the rest of the admin UI shows them (formatMoney, USD).
 */
export function decisionQuestion(id: number, from: string, to: string, facts: DecisionFacts = {}): ConfirmOptions | null {
  const ref = appRef(id);
  if (from === to) return null;
  const warnings: string[] = [];
  if (to === 'accepted' && facts.documentProblems?.length) warnings.push(`Required documents are not in order: ${facts.documentProblems.join('; ')}.`);
  if (to === 'accepted' && facts.documentsUnknown) warnings.push('The documents could not be checked.');
  if (to === 'payment_pending' && facts.paidFee) {
    const fee = formatMoney(facts.paidFee, 'USD');
    warnings.push(`${ref}'s fee of ${fee} is recorded as paid. Payment Pending takes ${fee} out of "Fees collected" and tells the applicant that payment is required; moving ${ref} to another status later counts the ${fee} again.`);
  }
  const warned = (o: ConfirmOptions): ConfirmOptions => (warnings.length ? { ...o, description: `${warnings.join(' ')} ${o.description}` } : o);
  if (from === 'accepted' || from === 'rejected') {
    return warned({ title: `${ref} was ${statusLabel(from)}. Change it to ${statusLabel(to)}?`, description: 'The applicant will be e-mailed about the change.', action: `Change to ${statusLabel(to)}`, danger: true });
  }
  if (to === 'rejected') return { title: `Reject ${ref}?`, description: 'The application will be marked rejected and the applicant will be e-mailed about the decision.', action: 'Reject application', danger: true };
  if (to === 'accepted') return warned({ title: `Accept ${ref}?`, description: 'The application will be marked accepted and the applicant will be e-mailed about the decision.', action: 'Accept application', danger: Boolean(facts.documentProblems?.length) || undefined });
  if (warnings.length) return warned({ title: `Mark ${ref} Payment Pending?`, description: 'The applicant will be e-mailed about the change.', action: 'Mark Payment Pending', danger: true });
  return null;
}

/**
 * The facts decisionQuestion needs for application `id` moving to `to`, read now: for an accept, the document
 * checklist (fresh: a document may have been rejected in this panel since it loaded); for Payment Pending, the fee
 * when `detail` shows it paid. Never throws (a checklist that cannot be read gives `documentsUnknown`).
 */
export async function decisionFacts(id: number, to: string, detail?: DetailData | null): Promise<DecisionFacts> {
  const facts: DecisionFacts = {};
  if (to === 'accepted') {
    try { facts.documentProblems = requiredDocumentProblems(await api<Checklist>(`/api/applications/${id}/checklist`)); } catch { facts.documentsUnknown = true; }
  }
  const a = detail?.application;
  if (to === 'payment_pending' && a && a.paymentStatus === 'completed' && detail?.payment?.status === 'completed') facts.paidFee = a.paymentAmount;
  return facts;
}

type DetailData = AdminApplicationDetail;

const PERSONAL: [string, string][] = [
  ['firstName', 'First name'], ['lastName', 'Last name'], ['email', 'Email'], ['phone', 'Phone'], ['dateOfBirth', 'Date of birth'],
  ['nationality', 'Nationality'], ['addressLine1', 'Address'], ['addressLine2', 'Address line 2'], ['city', 'City'], ['state', 'State/Province'],
  ['postalCode', 'Postal code'], ['country', 'Country'],
];
const SCHOOL: [string, string][] = [['name', 'Name'], ['city', 'City'], ['country', 'Country'], ['from', 'From'], ['to', 'To'], ['qualification', 'Qualification'], ['grade', 'Grade']];


/** How a recorded payment was made, in the applicant's words: 'Card ending in 4242', 'Card', or the method as given ('PayPal'). */
export function paymentMethodText(method: string, last4: string | null): string {
  if (method === 'card') return last4 ? `Card ending in ${last4}` : 'Card';
  return method === 'paypal' ? 'PayPal' : method.charAt(0).toUpperCase() + method.slice(1);
}

/**
 * The applicant's account in the panel: the name, then the e-mail address on a line of its own, without angle brackets
 * (phone audit, 360 px: '<thandi.qa1@example.com' wrapped with the '>' alone on the next line). The address breaks
 * between any two characters only where it is wider than the column ([overflow-wrap:anywhere]); an unverified one says so.
 */
function AccountValue({ firstName, lastName, email, emailVerified }: { firstName: string; lastName: string; email: string; emailVerified?: boolean | null }) {
  return (
    <>
      <span className="block">{firstName} {lastName}</span>
      <span className="block [overflow-wrap:anywhere]" data-testid="account-email">{email}</span>
      {emailVerified === false && <span className="block">E-mail not verified</span>}
    </>
  );
}

/**
 * Label and value pairs: the label in a 7rem column (10rem from 640 px) beside its value, or above it where the
 * value would get less than 10rem. Both are in rem, so at 200% text on a phone each label stacks above its value
 * (accessibility audit: the old grid kept the 224 px label column and left the value 16 px; WCAG 1.4.10 Reflow).
 */
function Dl({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="space-y-1 text-sm">
      {items.filter(([, v]) => v).map(([k, v]) => (
        <div key={k} className="flex flex-wrap gap-x-3">
          <dt className="muted max-w-full shrink-0 basis-28 break-words sm:basis-40">{k}</dt>
          <dd className="min-w-0 max-w-full shrink grow basis-40 break-words">{v}</dd>
        </div>))}
    </dl>
  );
}

/** Where the decision bar is sticky: its classes `sm:sticky [@media(min-height:800px)]:sticky`, as a media query. */
const STICKY_BAR = '(min-width: 640px), (min-height: 800px)';

/**
 * Keeps the sticky decision bar (`bar`, rendered once `ready`) off the focused element (accessibility audit F2, WCAG
 * 2.4.11 Focus Not Obscured): a ResizeObserver measures the bar, and the panel's scrolling element gets that height
 * (plus its own bottom padding and 8 px) as scroll-padding-bottom, so the browser scrolls a newly focused element
 * clear of the bar. With large text (zoom, a 200% font size: media queries cannot see it) a bar taller than 40%
 * of the window would hide too much of the panel: it is then not sticky (returns true) and there is no padding.
 */
function useDecisionBarClearance(bar: RefObject<HTMLElement | null>, ready: boolean): boolean {
  const [tall, setTall] = useState(false);
  useEffect(() => {
    const el = bar.current;
    let scroller = el?.parentElement ?? null;
    while (scroller && !/(auto|scroll)/.test(getComputedStyle(scroller).overflowY)) scroller = scroller.parentElement;
    if (!el) return;
    const target = scroller ?? document.documentElement;
    const update = () => {
      const h = el.getBoundingClientRect().height;
      const tooTall = h > window.innerHeight * 0.4;
      setTall(tooTall);
      const sticky = !tooTall && window.matchMedia(STICKY_BAR).matches;
      target.style.scrollPaddingBottom = sticky ? `${Math.ceil(h + (parseFloat(getComputedStyle(target).paddingBottom) || 0) + 8)}px` : '';
    };
    const observer = new ResizeObserver(update);
    observer.observe(el);
    window.addEventListener('resize', update);
    update();
    return () => { observer.disconnect(); window.removeEventListener('resize', update); target.style.scrollPaddingBottom = ''; };
  }, [ready]);
  return tall;
}

/**
 * The panel's content for application `id`; `onChanged` runs after a status change so the list refreshes.
 * `onPrevious` / `onNext` open the neighbouring application (absent: the button is disabled); `focus` names the
 * one of them to focus once this application has loaded (the admin pressed it to get here). When the list behind the
 * panel changes (a search or filter answered after the panel opened) and the focused one of them turns disabled, the
 * focus moves to the other if it is enabled, else to the panel's Close (usePanelFocusHome), not to <body>.
 */
export function ApplicationReview({ id, onChanged, onPrevious, onNext, focus }: {
  id: number; onChanged: () => void; onPrevious?: () => void; onNext?: () => void; focus?: 'previous' | 'next';
}): ReactElement {
  const [d, setD] = useState<DetailData | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [notes, setNotes] = useState('');
  const [saving, setSaving] = useState(false);
  const load = useCallback(() => {
    api<DetailData>(`/api/admin/applications/${id}`).then((r) => { setD(r); setStatus(r.application.status); setError(null); })
      .catch((e) => setError(e instanceof ApiError && e.status === 404 ? 'This application no longer exists.' : 'Could not load the application.'));
  }, [id]);
  useEffect(load, [load]);
  const updateButton = useRef<HTMLButtonElement>(null);
  const rejectButton = useRef<HTMLButtonElement>(null);
  // After 'Reject application' the Reject button is disabled: the focus goes to Update status instead.
  const [confirmDialog, ask] = useConfirm(() => updateButton.current);
  // The confirmation gives the focus back to Reject, which is still enabled then; it turns disabled when the
  // rejected application reloads, and the browser dropped the focus to the panel or <body> (phone audit). Whether
  // Reject has the focus is kept through that (a blur from turning disabled has no relatedTarget), and the layout
  // effect below moves it, in the same frame, to Update status: the next control of the decision bar, where the
  // admin was; the toast 'Application updated' says 'APP-n is now Rejected'.
  const rejectFocus = useRef(false);
  const unsaved = notes.trim() !== '' || (d != null && status !== d.application.status);
  usePanelUnsaved(unsaved);
  const previousButton = useRef<HTMLButtonElement>(null);
  const nextButton = useRef<HTMLButtonElement>(null);
  const loaded = d != null;
  const decisionBar = useRef<HTMLElement>(null);
  const barTooTall = useDecisionBarClearance(decisionBar, loaded);
  useEffect(() => {
    if (!loaded || !focus) return;
    const b = (focus === 'next' ? nextButton : previousButton).current;
    (b && !b.disabled ? b : updateButton.current)?.focus();
  }, [loaded]);
  const rejected = d?.application.status === 'rejected';
  useLayoutEffect(() => {
    const lost = rejectButton.current;
    if (!rejected || !rejectFocus.current || !lost?.disabled) return;
    rejectFocus.current = false;
    const active = document.activeElement;
    if (active && active !== document.body && active !== lost && !active.contains(lost)) return; // the admin had moved on
    updateButton.current?.focus();
  }, [rejected]);
  // Which of Previous/Next has the focus. Kept when it turns disabled: the browser then drops the focus to <body>
  // with no focusin anywhere, so this still names the button that lost it (keyboard audit: Tab then left the panel).
  const navFocus = useRef<'previous' | 'next' | null>(null);
  const focusHome = usePanelFocusHome();
  // A layout effect: the focus moves in the same frame as the button turns disabled.
  useLayoutEffect(() => {
    const which = navFocus.current;
    const lost = which && (which === 'next' ? nextButton : previousButton).current;
    if (!lost || !lost.disabled) return;
    navFocus.current = null;
    const active = document.activeElement;
    if (active && active !== document.body && active !== lost) return; // the admin had moved on
    const other = (which === 'next' ? previousButton : nextButton).current;
    if (other && !other.disabled) other.focus();
    else if (!focusHome()) updateButton.current?.focus();
  }, [!onPrevious, !onNext]);
  const trackNav = (which: 'previous' | 'next') => ({
    onFocus: () => { navFocus.current = which; },
    // Only a move to another element forgets it (a blur from turning disabled has no relatedTarget).
    onBlur: (e: { relatedTarget: EventTarget | null }) => { if (e.relatedTarget && navFocus.current === which) navFocus.current = null; },
  });
  // Moving on with a typed note or a changed status asks first, as closing the panel does (Panel.tsx).
  const go = async (to?: () => void) => {
    if (!to) return;
    if (unsaved && !await ask({ title: 'Discard your changes?', description: 'What you typed in this form has not been saved and will be lost.', action: 'Discard changes', cancel: 'Keep editing', danger: true })) return;
    to();
  };
  // Busy from the press on: the question first reads the document checklist (decisionFacts), which on a slow link
  // took seconds with nothing shown, and a second press asked a second question (senior review).
  const saveLock = useRef(false);
  const save = async (to: string) => {
    if (saveLock.current || !d) return;
    const from = d.application.status;
    if (from === to && !notes.trim()) {
      toast({ title: 'Nothing to update', description: 'Choose another status or type a note first.' });
      return;
    }
    saveLock.current = true;
    setSaving(true);
    try {
      const question = from === to ? null : decisionQuestion(id, from, to, await decisionFacts(id, to, d));
      if (question && !await ask(question)) return;
      if (await changeStatus(id, to, notes, d.application.status, () => { load(); onChanged(); })) { setNotes(''); load(); onChanged(); }
    } finally {
      saveLock.current = false;
      setSaving(false);
    }
  };
  if (error) return <ErrorState message={error} onRetry={load} />;
  if (!d) return <SkeletonRows rows={6} label="Loading application" />;
  const a = d.application;
  const p = a.personal ?? {};
  return (
    <div className="space-y-6">
      {confirmDialog}
      <div className="flex flex-wrap items-center gap-3"><StatusBadge status={a.status} /><span className="text-sm muted">Submitted {formatStaffDateTime(a.createdAt)}</span></div>
      <section aria-labelledby="d-applicant"><h3 id="d-applicant" className="mb-2 font-semibold">Applicant</h3>
        <Dl items={[['Course', a.course?.title ?? 'Unknown Course'], ['Department', a.course?.department], ['Account', d.applicant ? <AccountValue {...d.applicant} /> : null],
          ...PERSONAL.map(([k, l]) => [l, k === 'nationality' || k === 'country' ? countryName(p[k]) : k === 'phone' ? formatPhone(p[k]) : k === 'dateOfBirth' ? formatStaffDate(p[k]) || p[k] : p[k]] as [string, string])]} />
      </section>
      <section aria-labelledby="d-academic"><h3 id="d-academic" className="mb-2 font-semibold">Academic history</h3>
        {a.academicHistory?.highSchool ? <><p className="text-sm font-medium">High school</p><Dl items={SCHOOL.map(([k, l]) => [l, a.academicHistory.highSchool?.[k]])} /></> : <p className="text-sm muted">None given</p>}
        {a.academicHistory?.college?.name && <><p className="mt-2 text-sm font-medium">College / university</p><Dl items={SCHOOL.map(([k, l]) => [l, a.academicHistory.college?.[k]])} /></>}
        <p className="mt-2 text-sm font-medium">NSC results</p>
        <NscResultsList results={a.academicHistory?.nscResults ?? []} />
        <p className="mt-2 flex flex-wrap items-center gap-2 text-sm" data-testid="detail-eligibility">
          <span>APS {a.aps ?? '—'}</span><span aria-hidden="true">·</span><span>Eligibility:</span> <EligibilityBadge eligible={a.eligible} reasons={a.eligibilityReasons} />
        </p>
        {a.eligible === false && <ul className="mt-1 list-disc pl-6 text-sm">{(a.eligibilityReasons ?? []).map((r) => <li key={r}>{r}</li>)}</ul>}
      </section>
      {!FILTER_GROUPS.pending?.includes(a.status) && (
        <p role="note" className="rounded-md bg-slate-100 p-3 text-sm dark:bg-slate-800" data-testid="decided-documents-note">
          {appRef(id)} is {statusLabel(a.status)}. Its documents can still be verified or rejected for the record, but the
          applicant is not asked for a new file and cannot send one. To ask for one, change the status to Documents Required.
        </p>
      )}
      <DocumentReviews applicationId={id} />
      <section aria-labelledby="d-pay"><h3 id="d-pay" className="mb-2 font-semibold">Payment</h3>
        <Dl items={[['Status', statusLabel(a.paymentStatus)], ['Amount', formatMoney(a.paymentAmount, 'USD')], ['Method', d.payment ? paymentMethodText(d.payment.method, d.payment.last4) : null], ['Reference', d.payment?.reference], ['Payment date', d.payment ? formatStaffDateTime(d.payment.createdAt) : null]]} />
      </section>
      <section aria-labelledby="d-history"><h3 id="d-history" className="mb-2 font-semibold">History</h3>
        <ol className="space-y-2 text-sm">{d.history.map((h) => (
          <li key={h.id} className="border-l-2 border-slate-300 pl-3 dark:border-slate-600">
            <span className="font-medium">{!h.fromStatus ? `Submitted (${statusLabel(h.toStatus)})` : h.fromStatus === h.toStatus ? `Note (${statusLabel(h.toStatus)})` : `${statusLabel(h.fromStatus)} → ${statusLabel(h.toStatus)}`}</span>
            {!h.fromStatus && a.enteredBy && <span className="block" data-testid="entered-by">Entered by {a.enteredBy.name}{a.enteredBy.campus ? ` at ${a.enteredBy.campus}` : ''}</span>}
            <span className="block muted">{formatStaffDateTime(h.createdAt)}{h.changedBy ? ` by ${h.changedBy.name}` : ''}{h.changedBy?.email ? ` (${h.changedBy.email})` : ''}</span>
            {h.notes && <span className="block">{h.notes}</span>}
          </li>))}</ol>
      </section>
      <section ref={decisionBar} aria-labelledby="d-status" className={`card bottom-0 z-10 p-3 shadow-lg ${barTooTall ? '' : 'sm:sticky [@media(min-height:800px)]:sticky'}`} data-testid="decision-bar">
        <h3 id="d-status" className="mb-1 text-sm font-semibold">Change status</h3>
        <div className="grid gap-2 sm:grid-cols-2">
          <div><label htmlFor="d-status-select" className="label">Status</label>
            <select id="d-status-select" className="input" value={status} onChange={(e) => setStatus(e.target.value)}>
              {APPLICATION_STATUSES.map((s) => <option key={s} value={s}>{statusLabel(s)}</option>)}
            </select></div>
          <div><label htmlFor="d-notes" className="label">Notes (internal, never shown to the applicant)</label>
            <textarea id="d-notes" className="input" rows={1} maxLength={2000} value={notes} onChange={(e) => setNotes(e.target.value)} /></div>
        </div>
        <div className="mt-2 flex flex-wrap gap-2">
          {/* aria-disabled, not disabled, while saving: a disabled button drops the focus to the page (WCAG 2.4.3). */}
          <button ref={updateButton} type="button" className="btn-primary aria-disabled:cursor-not-allowed aria-disabled:opacity-60" aria-disabled={saving || undefined} onClick={() => void save(status)}>{saving ? 'Saving…' : 'Update status'}</button>
          <button ref={rejectButton} type="button" className="btn-danger aria-disabled:cursor-not-allowed aria-disabled:opacity-60" aria-disabled={saving || undefined} disabled={a.status === 'rejected'} onClick={() => void save('rejected')}
            onFocus={() => { rejectFocus.current = true; }} onBlur={(e) => { if (e.relatedTarget) rejectFocus.current = false; }}>Reject</button>
          <span className="ml-auto flex flex-wrap gap-2">
            <button ref={previousButton} type="button" className="btn-secondary" disabled={!onPrevious} onClick={() => void go(onPrevious)} {...trackNav('previous')}>Previous<span className="sr-only"> application</span></button>
            <button ref={nextButton} type="button" className="btn-secondary" disabled={!onNext} onClick={() => void go(onNext)} {...trackNav('next')}>Next<span className="sr-only"> application</span></button>
          </span>
        </div>
      </section>
    </div>
  );
}
