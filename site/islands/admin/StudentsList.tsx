/**
 * Admin students (issue #6; DESIGN §4 "admin Students list (real users)"): search by name, e-mail or phone,
 * contact details, each student's applications and erasure requests. Empty: 'No students found matching your search.'
 * An open erasure request (POPIA §24) has "Erase personal data" (confirmed in an AlertDialog that says what is erased
 * and what is kept) and "Decline request" (a reason is required; it is e-mailed to the student):
 * POST /api/admin/erasure-requests/{id}. Afterwards a toast, the list reloads and the focus goes to the request's line.
 */
import { useEffect, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { appRef, countryName, formatStaffDateTime } from '../../lib/format.ts';
import { formatPhone } from '../../lib/phone.ts';
import { useAdminAccess } from './use-admin.ts';
import { $students, $studentsQuery } from './admin-stores.ts';
import { useLastData } from '../ui/use-last-data.ts';
import { AccessGate, Empty } from './admin-ui.tsx';
import { ErrorState } from '../ui/ErrorState.tsx';
import { SkeletonRows } from '../ui/SkeletonRows.tsx';
import { StatusBadge } from '../ui/StatusBadge.tsx';
import { Pager } from '../ui/Pager.tsx';
import { positiveInt, readUrlQuery, writeUrlQuery } from './url-query.ts';
import { Field, fieldProps } from '../ui/Field.tsx';
import { saveApi } from '../ui/save-api.ts';
import { ApiError } from '../../lib/api-client.ts';
import { toast } from '../../stores/toasts.ts';
import { useConfirm } from './ConfirmDialog.tsx';
import type { Student } from '#contracts/students.ts';
import type { ErasureDecision } from '#contracts/erasure.ts';
import { BusyButton } from '../ui/BusyButton.tsx';

const UNEXPECTED = 'An unexpected error occurred';
/** What an erasure removes and keeps (api erasure.repo eraseOwnRows, redactApplications); the Privacy Policy lists the same. */
const ERASE_DESCRIPTION = 'Erased for good: name, e-mail address, phone, address, ID number, date of birth, emergency contact, NSC results '
  + 'and academic history, uploaded documents, drafts, notifications and sign-ins, staff notes, the reasons given for rejecting documents '
  + 'and the last digits of the card. Kept, without the name (shown as "Erased applicant"): each application\'s course, status, dates, '
  + 'status history, whether each document was verified or rejected, and its payment amount, method, reference and status. The student is '
  + 'e-mailed and can no longer sign in. This cannot be undone.';

/** Registered students for admins (page /admin/students and the dashboard tab; `heading` false inside the tab). */
/**
 * An erasure request's state in plain words for staff: open → 'waiting for a decision since {date}', done → 'done on {date}',
 * declined → 'declined on {date}' (date of the request, or of the decision once made; formatStaffDateTime, SAST).
 */
function erasureStateText(e: { status: string; createdAt: string; resolvedAt: string | null }): string {
  if (e.status === 'open') return `waiting for a decision since ${formatStaffDateTime(e.createdAt)}`;
  return `${e.status} on ${formatStaffDateTime(e.resolvedAt ?? e.createdAt)}`;
}

export default function StudentsList({ heading = true }: { heading?: boolean }) {
  const access = useAdminAccess();
  return <AccessGate access={access}><List heading={heading} /></AccessGate>;
}

function List({ heading }: { heading: boolean }) {
  // On its own page the search and page live in the address (url-query.ts; audit C item 3); not in the dashboard's tab.
  const inUrl = heading;
  const [start] = useState(() => (inUrl ? readUrlQuery(['q', 'page'] as const) : {}));
  const [q, setQ] = useState(start.q ?? '');
  const [term, setTerm] = useState((start.q ?? '').trim());
  const [page, setPage] = useState(positiveInt(start.page, 1));
  useEffect(() => { if (q.trim() === term) return; const h = setTimeout(() => { setTerm(q.trim()); setPage(1); }, 300); return () => clearTimeout(h); }, [q]);
  const query = new URLSearchParams({ q: term, page: String(page), pageSize: '25' }).toString();
  useEffect(() => {
    $studentsQuery.set(query);
    if (inUrl) writeUrlQuery({ q: term, page: String(page) }, { page: '1' });
  }, [query]);
  const list = useStore($students);
  const data = useLastData(list.data);
  const error = Boolean(list.error);
  const load = () => $students.revalidate();
  // After a decision the buttons are gone: the focus goes to that student's erasure line once the list has reloaded.
  const focusAfter = useRef<number | null>(null);
  useEffect(() => {
    if (focusAfter.current == null || !data) return;
    const line = document.querySelector<HTMLElement>(`[data-student-id="${focusAfter.current}"] [data-erasure-status]`);
    if (line) { line.focus(); focusAfter.current = null; }
  }, [data]);
  const decided = (studentId: number) => { focusAfter.current = studentId; load(); };
  return (
    <section>
      {heading ? <h1 className="mb-4 text-2xl font-bold">Students</h1> : <h2 className="mb-4 text-xl font-bold">Students</h2>}
      <div role="search" className="mb-4 max-w-md">
        <label htmlFor="student-search" className="label">Search students</label>
        <input id="student-search" type="search" className="input" placeholder="Name, e-mail or phone" value={q} onChange={(e) => setQ(e.target.value)} />
      </div>
      {error ? <ErrorState message="Error loading student data. Please try again." onRetry={load} />
        : !data ? <SkeletonRows rows={5} label="Loading students" />
        : data.students.length === 0 ? <Empty>No students found matching your search.</Empty>
        : (
          <>
            <p className="mb-2 text-sm muted">{data.total} student{data.total === 1 ? '' : 's'}</p>
            <ul className="space-y-3">
              {data.students.map((s) => (
                <li key={s.id} className="card p-4" data-testid="student" data-student-id={s.id}>
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    {/* One level below the list's own heading (an h1 on /admin/students, an h2 where it is a section). */}
                    {heading ? <h2 className="min-w-0 font-semibold">{s.name}</h2> : <h3 className="min-w-0 font-semibold">{s.name}</h3>}
                    <span className="text-xs muted">Registered {formatStaffDateTime(s.createdAt)}</span>
                  </div>
                  <p className="text-sm [overflow-wrap:anywhere]"><a className="underline" href={`mailto:${s.email}`}>{s.email}</a>{s.phone && <> · <a className="underline" href={`tel:${s.phone}`}>{formatPhone(s.phone)}</a></>}</p>
                  {(s.addressLine1 || s.city) && <p className="text-sm muted">{[s.addressLine1, s.city, countryName(s.country)].filter(Boolean).join(', ')}</p>}
                  {s.erasureRequests.length > 0 && (
                    <div className="mt-2 rounded bg-orange-50 p-2 text-sm text-orange-900 dark:bg-orange-950 dark:text-orange-100">
                      <p data-erasure-status tabIndex={-1}>
                        Erasure request{s.erasureRequests.length > 1 ? 's' : ''}: {s.erasureRequests.map((e) => `${erasureStateText(e)}${e.reason ? ` (“${e.reason}”)` : ''}${e.decisionReason ? `, declined because “${e.decisionReason}”` : ''}`).join('; ')}
                      </p>
                      {s.erasureRequests.filter((e) => e.status === 'open').map((e) => <ErasureActions key={e.id} requestId={e.id} student={s} onDecided={() => decided(s.id)} />)}
                    </div>)}
                  {s.applications.length === 0 ? <p className="mt-2 text-sm muted">No applications yet.</p> : (
                    <ul className="mt-2 space-y-1 text-sm">
                      {s.applications.map((a) => <li key={a.id} className="flex flex-wrap items-center gap-2"><a className="font-mono underline" href={`/admin/applications?q=${appRef(a.id)}`}>{appRef(a.id)}</a> <span className="min-w-0 wrap-anywhere">{a.course}</span> <StatusBadge status={a.status} /></li>)}
                    </ul>)}
                </li>
              ))}
            </ul>
            <Pager page={page} pageSize={25} total={data.total} onPage={setPage} />
          </>
        )}
    </section>
  );
}

/** The two decisions on one open erasure request; `onDecided` after a success (the caller reloads the list). */
function ErasureActions({ requestId, student, onDecided }: { requestId: number; student: Student; onDecided: () => void }) {
  const [busy, setBusy] = useState(false);
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const eraseButton = useRef<HTMLButtonElement>(null);
  const declineButton = useRef<HTMLButtonElement>(null);
  const reasonField = useRef<HTMLTextAreaElement>(null);
  const [confirmDialog, ask] = useConfirm(() => eraseButton.current);
  useEffect(() => { if (declining) reasonField.current?.focus(); }, [declining]);

  const send = async (body: ErasureDecision, done: { title: string; description: string }, failTitle: string) => {
    setBusy(true);
    try {
      await saveApi(`/api/admin/erasure-requests/${requestId}`, { method: 'POST', json: body });
      toast({ ...done, variant: 'success' });
      onDecided();
    } catch (e) {
      if (e instanceof ApiError && e.fields.reason) { setReasonError(e.fields.reason); reasonField.current?.focus(); }
      else toast({ title: failTitle, description: e instanceof ApiError ? e.userMessage : UNEXPECTED, variant: 'destructive' });
      if (e instanceof ApiError && e.status === 409) onDecided();
    } finally { setBusy(false); }
  };
  const erase = async () => {
    if (busy || !await ask({ title: `Erase the personal data of ${student.name}?`, description: ERASE_DESCRIPTION, action: 'Erase personal data', danger: true })) return;
    await send({ decision: 'erase' }, { title: 'Personal data erased', description: `${student.name} is now "Erased applicant"; the application records are kept.` }, 'Error erasing personal data');
  };
  const decline = async (ev: { preventDefault(): void }) => {
    ev.preventDefault();
    if (busy) return;
    if (!reason.trim()) { setReasonError('Please give the reason for declining'); reasonField.current?.focus(); return; }
    await send({ decision: 'decline', reason }, { title: 'Request declined', description: `${student.name} was e-mailed the reason.` }, 'Error declining the request');
  };

  return (
    <div className="mt-2">
      {confirmDialog}
      <div className="flex flex-wrap gap-2">
        <BusyButton ref={eraseButton} className="btn-danger" busy={busy} onClick={() => void erase()}>{busy && !declining ? 'Erasing…' : 'Erase personal data'}</BusyButton>
        {!declining && <button ref={declineButton} type="button" className="btn-secondary" disabled={busy} onClick={() => setDeclining(true)}>Decline request</button>}
      </div>
      {declining && (
        <form className="mt-2 space-y-2" onSubmit={decline} noValidate>
          <Field id={`decline-reason-${requestId}`} label="Reason for declining (e-mailed to the applicant)" error={reasonError}>
            <textarea ref={reasonField} className="input" rows={3} maxLength={2000} value={reason}
              onChange={(e) => { setReason(e.target.value); setReasonError(undefined); }} {...fieldProps(`decline-reason-${requestId}`, reasonError)} />
          </Field>
          <div className="flex flex-wrap gap-2">
            <BusyButton type="submit" className="btn-primary" busy={busy}>{busy ? 'Declining…' : 'Decline request'}</BusyButton>
            <button type="button" className="btn-secondary" disabled={busy} onClick={() => { setDeclining(false); setReasonError(undefined); requestAnimationFrame(() => declineButton.current?.focus()); }}>Cancel</button>
          </div>
        </form>)}
    </div>
  );
}
