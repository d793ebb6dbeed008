/**
 * /applications/{id} (issue #5, "View Details"): status timeline with dates, submitted data, documents
 * (the per-document checklist of issue #16: received with receipt / verified / rejected, replace a rejected one), payment, and — while the status is documents_required — one upload area
 * (PUT /api/applications/:id/documents): the rejected and missing required documents first, each marked required with
 * the admin's reason, then "Add other documents (optional)"; files chosen there and not sent are kept for coming back,
 * marked 'Not sent yet', and leaving asks first (useUnsentFiles); the checklist then only points to it (one upload control
 * per document, usability audit November 2026). An accepted application says what happens next (the Accepted
 * e-mail's sentence) and gives the office phone. A decided (accepted or rejected) application's checklist is read-only:
 * a rejected document shows its reason and why it can no longer be replaced. Another student's id shows 'Application not found'.
 */
import { useEffect, useRef, useState } from 'react';
import { DOCUMENT_SLOTS, FILTER_GROUPS } from '#contracts/application-steps.ts';
import { appRef, countryName, formatDate, formatDateTime } from '../../lib/format.ts';
import { formatPhone } from '../../lib/phone.ts';
import { ACCEPTED_NEXT_STEP, statusLabel } from '#contracts/statuses.ts';
import { api, ApiError } from '../../lib/api-client.ts';
import { saveApi } from '../ui/save-api.ts';
import { toast } from '../../stores/toasts.ts';
import { useSession } from '../ui/use-session.ts';
import { ApplicationAlerts } from '../student/ApplicationAlerts.tsx';
import { applicationProgress, courseName, ProgressBar } from '../student/shared.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { redirectToLogin } from '../auth/redirect-to-login.ts';
import { StatusBadge } from '../ui/StatusBadge.tsx';
import type { ApplicationDetail as Detail, ApplicationView as ApplicationItem } from '#contracts/application-views.ts';
import { DocumentSlot, type SlotFile } from './DocumentSlot.tsx';
import { DocumentChecklist } from './DocumentChecklist.tsx';
import type { Checklist, ChecklistItem } from '#contracts/document-reviews.ts';
import { telephone } from '../../../content/site.json';
import { BusyButton } from '../ui/BusyButton.tsx';
import { useLeaveWarning } from '../ui/use-leave-warning.ts';


/** "Entered by <admin> at <campus>" for an application staff entered on the applicant's behalf (issue #18). */
export const enteredByText = (e: { name: string; campus: string | null }) => `Entered by ${e.name}${e.campus ? ` at ${e.campus}` : ''}`;

const country = (v?: string | null) => countryName(v);

/** The /applications/{id} island: one of the signed-in applicant's applications (see the file comment). */
export default function ApplicationDetail() {
  const session = useSession();
  const [id] = useState(() => (typeof window === 'undefined' ? '' : (/^\/applications\/(\d{1,9})\/?$/.exec(window.location.pathname)?.[1] ?? '')));
  const [detail, setDetail] = useState<Detail | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'not-found' | 'error'>('loading');
  const [errorText, setErrorText] = useState('');

  async function load() {
    if (!id) { setState('not-found'); return; }
    try {
      setDetail(await api<Detail>(`/api/applications/${id}`));
      setState('ready');
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return redirectToLogin(true);
      if (e instanceof ApiError && (e.status === 404 || e.status === 400)) { setState('not-found'); return; }
      // A server fault's text ('Internal error') and the browser's ('TypeError: Failed to fetch') mean nothing to an applicant.
      setErrorText(e instanceof ApiError && e.status < 500 ? e.userMessage : 'We could not load this application. Check your connection and press Try again.');
      setState('error');
    }
  }
  useEffect(() => {
    if (session.isLoading) return;
    if (!session.user) { redirectToLogin(true); return; }
    void load();
  }, [session.isLoading, session.user]);
  // Files kept unsent (useUnsentFiles) are of no use once the application no longer asks for documents.
  useEffect(() => { if (detail && detail.application.status !== 'documents_required') forgetUnsent(detail.application.id); }, [detail]);

  if (state === 'loading') return <Spinner label="Loading application…" />;
  if (state === 'not-found') {
    return (
      <div className="card p-10 text-center">
        <h1 className="text-2xl font-bold">Application not found</h1>
        <p className="mt-2 muted">This application does not exist or is not yours.</p>
        <a href="/my-applications" className="btn-primary mt-6">Back to My Applications</a>
      </div>
    );
  }
  if (state === 'error' || !detail) {
    return <div role="alert" className="card p-6"><p className="font-semibold">The application could not be loaded.</p><p className="muted">{errorText}</p><button type="button" className="btn-secondary mt-4" onClick={() => { setState('loading'); void load(); }}>Try again</button></div>;
  }

  const { application: app, timeline, documents, payment } = detail;
  const p = app.personal ?? {};
  const hs = app.academicHistory?.highSchool ?? {};
  const college = app.academicHistory?.college;
  return (
    <div className="space-y-8">
      <a href="/my-applications" className="-my-1 inline-block py-1 text-sm underline">← Back to My Applications</a>
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm muted">{appRef(app.id)}</p>
          <h1 className="text-3xl font-extrabold max-[20em]:hyphens-auto" lang="en">{courseName(app)}</h1>
          <p className="muted">Submitted {formatDate(app.submittedAt)}</p>
        </div>
        <StatusBadge status={app.status} />
      </header>
      <ProgressBar value={applicationProgress(app)} label="Application progress" />
      <ApplicationAlerts app={app} />
      {app.status === 'accepted' && (
        <section className="card p-6" aria-labelledby="next-h" data-testid="next-step">
          <h2 id="next-h" className="text-xl font-semibold">What happens next</h2>
          <p className="mt-2">{ACCEPTED_NEXT_STEP}</p>
          <p className="mt-2 text-sm">Questions? Call the admissions office on <a className="underline" href={`tel:${telephone.replace(/\s/g, '')}`}>{telephone}</a>.</p>
        </section>
      )}
      {app.status === 'documents_required' && <MissingDocuments app={app} documents={documents} onDone={(d) => setDetail(d)} />}

      <div className="grid grid-cols-[minmax(0,1fr)] gap-8 lg:grid-cols-2">
        <section className="card p-6" aria-labelledby="timeline-h">
          <h2 id="timeline-h" className="mb-4 text-xl font-semibold">Status timeline</h2>
          <ol className="relative space-y-4 border-l-2 border-slate-200 pl-5 dark:border-slate-700" data-testid="timeline">
            {timeline.map((h, i) => (
              <li key={i} className="relative">
                <span aria-hidden="true" className="absolute -left-[1.72rem] top-1 h-3 w-3 rounded-full bg-brand-700" />
                <p className="font-medium">{h.fromStatus ? `${statusLabel(h.fromStatus)} → ${statusLabel(h.toStatus)}` : `Submitted (${statusLabel(h.toStatus)})`}</p>
                {!h.fromStatus && app.enteredBy && <p className="text-sm" data-testid="entered-by">{enteredByText(app.enteredBy)}</p>}
                <p className="text-sm muted"><time dateTime={h.createdAt ?? undefined}>{formatDateTime(h.createdAt)}</time></p>
              </li>
            ))}
          </ol>
        </section>

        {/* Open is the Pending tab's statuses (spec §4); accepted and rejected are decided: no replacement (the API's 409). */}
        <DocumentChecklist key={`${app.id}-${app.updatedAt}`} applicationId={app.id} replaceAbove={app.status === 'documents_required'} decided={!FILTER_GROUPS.pending?.includes(app.status)} />

        <section className="card p-6" aria-labelledby="personal-h">
          <h2 id="personal-h" className="mb-4 text-xl font-semibold">Personal information</h2>
          <Rows rows={[
            ['Name', `${p.firstName ?? ''} ${p.lastName ?? ''}`], ['Email', p.email], ['Phone', formatPhone(p.phone)], ['Date of birth', formatDate(p.dateOfBirth) || p.dateOfBirth],
            ['Nationality', country(p.nationality)], ['Address', [p.addressLine1, p.addressLine2, p.city, p.state, p.postalCode, country(p.country)].filter(Boolean).join(', ')],
          ]} />
        </section>

        <section className="card p-6" aria-labelledby="academic-h">
          <h2 id="academic-h" className="mb-4 text-xl font-semibold">Academic history</h2>
          <Rows rows={[
            ['High school', [hs.name, hs.city, hs.country].filter(Boolean).join(', ')], ['Years', hs.from ? `${hs.from}–${hs.to}` : ''],
            ['Qualification', hs.qualification], ['Grade', hs.grade],
            ...(college?.name ? [['College', [college.name, college.qualification, college.from && `${college.from}–${college.to}`].filter(Boolean).join(', ')] as [string, string]] : []),
          ]} />
        </section>

        <section className="card p-6" aria-labelledby="payment-h">
          <h2 id="payment-h" className="mb-4 text-xl font-semibold">Payment</h2>
          {payment ? (
            <Rows rows={[
              ['Amount', `$${payment.amount}`], ['Method', payment.method === 'card' ? `Card${payment.last4 ? ` ending in ${payment.last4}` : ''}` : 'PayPal'],
              ['Reference', payment.reference], ['Status', statusLabel(payment.status)], ['Date', formatDate(payment.createdAt)],
            ]} />
          ) : <Rows rows={[['Amount', `$${app.paymentAmount}`], ['Status', statusLabel(app.paymentStatus)]]} />}
        </section>
      </div>
    </div>
  );
}

function Rows({ rows }: { rows: [string, string | undefined][] }) {
  return (
    <dl className="grid grid-cols-[minmax(0,7rem)_minmax(0,1fr)] gap-x-2 gap-y-1 text-sm sm:grid-cols-[9rem_minmax(0,1fr)]">
      {rows.map(([k, v]) => <div key={k} className="contents"><dt className="muted">{k}</dt><dd className="[overflow-wrap:anywhere]">{v || '—'}</dd></div>)}
    </dl>
  );
}

/**
 * localStorage key of the files chosen but not sent on /applications/`id` (see useUnsentFiles). Under
 * offline-snapshot.ts's prefix 'college.offline.', so log-out erases it with the snapshots (forgetSnapshots;
 * issue #16: nothing personal stays on the device for the next person, and file names can be personal).
 */
const unsentKey = (id: number) => `college.offline.unsent-documents:${id}`;

/** Forgets the files kept for application `id` (sent, or the application no longer asks for documents). */
export function forgetUnsent(id: number): void {
  try { localStorage.removeItem(unsentKey(id)); } catch { /* private mode */ }
}

/**
 * The files chosen per document slot on application `id`'s upload area, kept across leaving and coming back (phone
 * audit 2026-11-28: a replacement chosen and not sent was silently lost), as the wizard keeps its draft: the slots'
 * upload ids, names and sizes are written to localStorage (`unsent-documents:<id>`) on every change, and restored on
 * the next visit for the uploads GET /api/uploads still lists for the account (one erased meanwhile, or another
 * account's, is dropped). A file chosen before that answer comes keeps its slot. Returns [files, setFiles].
 */
function useUnsentFiles(id: number): [Record<string, SlotFile | null>, (f: (x: Record<string, SlotFile | null>) => Record<string, SlotFile | null>) => void] {
  const [files, setFiles] = useState<Record<string, SlotFile | null>>({});
  // Nothing is written until what was kept has been read back, so an early render cannot erase it.
  const [restored, setRestored] = useState(false);
  useEffect(() => {
    let kept: Record<string, SlotFile> = {};
    try { kept = JSON.parse(localStorage.getItem(unsentKey(id)) ?? '{}') ?? {}; } catch { /* unreadable: nothing kept */ }
    if (Object.keys(kept).length === 0) { setRestored(true); return; }
    let current = true;
    api<{ uploads: SlotFile[] }>('/api/uploads').then(({ uploads }) => {
      if (!current) return;
      const ids = new Set(uploads.map((u) => u.id));
      const still = Object.fromEntries(Object.entries(kept).filter(([, f]) => f && ids.has(f.id)));
      setFiles((x) => ({ ...still, ...Object.fromEntries(Object.entries(x).filter(([, f]) => f)) }));
    }, () => {
      // Not answered (offline): shown as kept; one erased meanwhile is refused by Send with the API's message.
      if (current) setFiles((x) => ({ ...kept, ...Object.fromEntries(Object.entries(x).filter(([, f]) => f)) }));
    }).finally(() => { if (current) setRestored(true); });
    return () => { current = false; };
  }, [id]);
  useEffect(() => {
    if (!restored) return;
    const keep = Object.fromEntries(Object.entries(files).filter(([, f]) => f).map(([k, f]) => [k, { id: f!.id, name: f!.name, size: f!.size }]));
    try {
      if (Object.keys(keep).length) localStorage.setItem(unsentKey(id), JSON.stringify(keep));
      else localStorage.removeItem(unsentKey(id));
    } catch { /* storage full or private mode */ }
  }, [files, restored]);
  return [files, setFiles];
}

/**
 * The one upload area while the status is documents_required: the documents to send (rejected ones with the admin's
 * reason, missing required ones) first and required, then the others as optional. Sends PUT /documents.
 * Sent with a needed document not chosen, the focus goes to the first such slot's "Choose a file for …" button,
 * whose accessible description is the slot's "Please upload a new …" (WCAG 3.3.1, 4.1.3; accessibility audit F3:
 * the message was silent and the focus stayed on Send documents). Which documents are needed depends on the
 * checklist (a rejected one is on file): Send pressed before it arrived waits for it, busy meanwhile (CI flake, November
 * 2026: on a loaded machine Send was pressed while the checklist was on its way, the rejected ID was not known to be
 * needed, 'Please upload at least one document' showed and the focus stayed on Send).
 */
function MissingDocuments({ app, documents, onDone }: { app: ApplicationItem; documents: Detail['documents']; onDone: (d: Detail) => void }) {
  const [files, setFiles] = useUnsentFiles(app.id);
  const sendButton = useRef<HTMLButtonElement>(null);
  const [items, setItems] = useState<ChecklistItem[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState<string[]>([]);
  // The checklist read, started once (by the effect below, or by a Send pressed before the effect ran); [] if it failed.
  const checklist = useRef<{ id: number; items: Promise<ChecklistItem[]> } | null>(null);
  const loadChecklist = () => {
    if (checklist.current?.id !== app.id) checklist.current = { id: app.id, items: api<Checklist>(`/api/applications/${app.id}/checklist`).then((c) => c.items, () => []) };
    return checklist.current.items;
  };
  // A Send pressed while the checklist is on its way is not sent twice (the ref: a second press before the re-render).
  const checking = useRef(false);
  // That wait shows on the button as the send does (busy, 'Sending...'): the press was taken (review, 2026-11-27).
  const [waiting, setWaiting] = useState(false);
  // Set by send() to the slot to focus once the slots show their errors (after the render, so the description is
  // there). Kept until that slot is on the page: the effect runs after every render, not only the one send() caused.
  const focusSlot = useRef<string | null>(null);
  const [, setFocusTick] = useState(0);
  useEffect(() => {
    const key = focusSlot.current;
    const box = key ? document.querySelector(`[data-slot="${key}"]`) : null;
    if (!box) return;
    focusSlot.current = null;
    // The slot's file input hands the focus to its visible button (DocumentSlot); while it uploads (the input is
    // disabled) the progress takes it.
    document.getElementById(`f-documents-${key}`)?.focus();
    if (!box.contains(document.activeElement)) box.querySelector<HTMLElement>('[tabindex="-1"]:not(input)')?.focus();
  });
  const chosen = Object.fromEntries(Object.entries(files).filter(([, v]) => v).map(([k, v]) => [k, v!.id]));
  // Chosen but not sent: leaving asks first (the choices are kept for coming back, useUnsentFiles, but not sent).
  useLeaveWarning(Object.keys(chosen).length > 0 && !busy);
  useEffect(() => {
    let current = true;
    void loadChecklist().then((list) => { if (current) setItems(list); });
    return () => { current = false; };
  }, [app.id]);
  // Without the checklist (it failed to load) only the missing required documents are known to be needed.
  const neededOf = (list: ChecklistItem[] | null) => DOCUMENT_SLOTS.filter((s) => list?.find((i) => i.slot === s.key)?.state === 'rejected' || (s.required && !documents[s.key]));
  const needed = neededOf(items);
  const others = DOCUMENT_SLOTS.filter((s) => !needed.includes(s));

  async function send() {
    if (busy || checking.current) return;
    let list = items;
    if (!list) {
      checking.current = true;
      setWaiting(true);
      try { list = await loadChecklist(); } finally { checking.current = false; setWaiting(false); }
      setItems(list);
    }
    const notYet = neededOf(list).filter((s) => !files[s.key]).map((s) => s.key);
    setMissing(notYet);
    if (notYet.length) { setError(null); focusSlot.current = notYet[0]; setFocusTick((n) => n + 1); return; }
    if (Object.keys(chosen).length === 0) { setError('Please upload at least one document'); return; }
    setBusy(true); setError(null);
    try {
      await saveApi(`/api/applications/${app.id}/documents`, { method: 'PUT', json: { documents: chosen } });
      forgetUnsent(app.id);
      toast({ title: 'Documents submitted', description: 'Your application is under review again.', variant: 'success' });
      onDone(await api(`/api/applications/${app.id}`));
    } catch (e) {
      setError(e instanceof ApiError ? e.userMessage : 'The documents could not be sent. Please try again.');
    } finally { setBusy(false); }
  }

  const slot = (s: (typeof DOCUMENT_SLOTS)[number], required: boolean) => {
    const item = items?.find((i) => i.slot === s.key);
    const current = documents[s.key];
    const picked = files[s.key];
    return (
      <DocumentSlot key={s.key} slot={s.key} label={s.label} required={required}
        note={<>
          {item?.state === 'rejected' && (picked
            // The new file takes the place of the one not accepted: no longer a red alert (phone audit 2026-11-28).
            ? <p className="mt-1 rounded-md bg-slate-100 p-2 text-sm dark:bg-slate-800" data-testid={`replaces-${s.key}`}>Your new file replaces the {s.label} we could not accept ({item.reason}).</p>
            : <p className="mt-1 rounded-md bg-red-50 p-2 text-sm dark:bg-red-950"><span className="font-semibold">Not accepted:</span> {item.reason}</p>)}
          {item?.state !== 'rejected' && current && <p className="text-xs muted">You sent {current.name}. Add a new one only to replace it.</p>}
          {picked && (
            <p className="mt-1 rounded-md bg-amber-50 p-2 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-50" data-testid={`unsent-${s.key}`}>
              {/* A link, not a second button named 'Send documents': it takes the focus to the one that sends. */}
              <span className="font-semibold">Not sent yet:</span> press{' '}
              <a href="#send-documents" className="underline" onClick={(e) => { e.preventDefault(); sendButton.current?.scrollIntoView({ block: 'center' }); sendButton.current?.focus(); }}>Send documents</a> below.
            </p>
          )}
        </>}
        error={missing.includes(s.key) ? `Please upload a new ${s.label}` : undefined}
        value={files[s.key] ?? null} onChange={(f) => setFiles((x) => ({ ...x, [s.key]: f }))}
        onDiscard={(id) => { void api(`/api/uploads/${encodeURIComponent(id)}`, { method: 'DELETE' }).catch(() => {}); }} />
    );
  };

  return (
    <section className="card p-6" aria-labelledby="missing-h">
      <h2 id="missing-h" className="text-xl font-semibold">Upload the requested documents</h2>
      {!items ? <p className="muted">Loading documents…</p> : (
        // While sending, the pickers are unavailable: a file picked then was not in what is being sent and was lost
        // when the page moved on (phone audit, 2026-11-27, item 4).
        <fieldset disabled={busy} aria-describedby={busy ? 'missing-sending' : undefined} className="min-w-0">
          {busy && <p id="missing-sending" className="mt-2 text-sm muted">Sending your documents… You can change the files again if this does not go through.</p>}
          {needed.length > 0 && <div className="mt-3 space-y-3">{needed.map((s) => slot(s, true))}</div>}
          {others.length > 0 && (
            <>
              <h3 className="mt-6 font-semibold">Add other documents (optional)</h3>
              <p className="mb-3 text-sm muted">Files you already provided stay attached unless you replace them.</p>
              <div className="space-y-3">{others.map((s) => slot(s, false))}</div>
            </>
          )}
        </fieldset>
      )}
      {error && <p role="alert" className="field-error">{error}</p>}
      <BusyButton ref={sendButton} id="send-documents" className="btn-primary mt-4" busy={busy || waiting} onClick={() => void send()}>{busy || waiting ? 'Sending...' : 'Send documents'}</BusyButton>
    </section>
  );
}
