/**
 * Admin review of each document of one application (issue #16 point 3), inside the applications detail panel:
 * per slot the file's name and size, View (PDF and images, in a new tab) and Download, its SHA-256 as "Receipt code: …" (the words the applicant sees, DocumentChecklist), its state, Verify, and Reject with a required
 * reason that the applicant sees (PUT /api/admin/applications/{id}/documents/{slot}, naming the upload and the state
 * shown, so a file the applicant replaced, or another admin decided on, meanwhile is not judged unseen: 409, toasted,
 * and the list reloads); below, every review so far.
 */
import { formatBytes, formatStaffDateTime } from '../../lib/format.ts';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Checklist, ChecklistItem, ReviewResult } from '#contracts/document-reviews.ts';
import { api, ApiError } from '../../lib/api-client.ts';
import { saveApi } from '../ui/save-api.ts';
import { usePanelUnsaved } from './Panel.tsx';
import { toast } from '../../stores/toasts.ts';
import { ErrorState } from '../ui/ErrorState.tsx';
import { SkeletonRows } from '../ui/SkeletonRows.tsx';
import { STATE_CLASS, STATE_LABEL } from '../applications/DocumentChecklist.tsx';

/**
 * What the 'Document rejected' toast says: on an open application the applicant is asked for a new file (notice,
 * e-mail, SMS); on a decided one (`decided`: accepted or rejected, spec §4, as the API found it under the row lock,
 * ReviewResult) the API records the rejection and sends nothing since df48331 (reviewDocument, isOpenStatus).
 */
export const rejectedToastText = (decided: boolean): string => (decided
  ? 'Recorded. The applicant was not notified, because the application has been decided.'
  : 'The applicant was notified.');

/**
 * The documents of application `applicationId`, each verified or rejected with a reason (issue #16); a rejection's
 * toast says whether the applicant was notified from the API's answer (rejectedToastText).
 */
export default function DocumentReviews({ applicationId }: { applicationId: number }) {
  const [list, setList] = useState<Checklist | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    api<Checklist>(`/api/applications/${applicationId}/checklist`).then((c) => { setList(c); setError(null); })
      .catch((e) => setError(e instanceof ApiError ? e.userMessage : 'Could not load the documents.'));
  }, [applicationId]);
  useEffect(load, [load]);
  if (error) return <ErrorState message={error} onRetry={load} />;
  if (!list) return <SkeletonRows rows={4} label="Loading documents" />;
  const labelOf = (slot: string) => list.items.find((i) => i.slot === slot)?.label ?? slot;
  return (
    <section aria-labelledby="d-docs"><h3 id="d-docs" className="mb-2 font-semibold">Documents</h3>
      <ul className="space-y-3 text-sm" data-testid="admin-document-reviews">
        {list.items.map((item) => <ReviewRow key={item.slot} item={item} applicationId={applicationId} onDone={setList} onStale={load} />)}
      </ul>
      {list.history.length > 0 && (
        <>
          <h4 className="mb-1 mt-4 text-sm font-semibold">Review history</h4>
          <ol className="space-y-1 text-xs" data-testid="review-history">{list.history.map((h, i) => (
            <li key={i} className="border-l-2 border-slate-300 pl-2 dark:border-slate-600">
              {labelOf(h.slot)}: <span className="font-medium">{h.status === 'verified' ? 'Verified' : 'Rejected'}</span>{h.reason ? ` — ${h.reason}` : ''}
              <span className="block muted">{formatStaffDateTime(h.createdAt)}{h.reviewer ? ` by ${h.reviewer}` : ''}{h.reviewerEmail ? ` (${h.reviewerEmail})` : ''}</span>
            </li>))}</ol>
        </>
      )}
    </section>
  );
}

const LINK = 'inline-flex min-h-6 items-center text-brand-700 underline dark:text-brand-100';
const fileUrl = (id: string) => `/api/uploads/${encodeURIComponent(id)}`;
/**
 * Whether a browser can show the file itself (PDF viewer, image): the stored name always ends in the extension of the
 * type found in its bytes (sanitizeName), and the API answers anything else as a download even when asked inline.
 */
const viewable = (name: string) => /\.(pdf|png|jpe?g)$/i.test(name);

function ReviewRow({ item, applicationId, onDone, onStale }: { item: ChecklistItem; applicationId: number; onDone: (c: Checklist) => void; onStale: () => void }) {
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const stateRef = useRef<HTMLSpanElement>(null);
  const rejectRef = useRef<HTMLButtonElement>(null);
  // Where the focus goes once the buttons it was on are gone or disabled (WCAG 2.4.3): after a decision the
  // document's new state, after Cancel the Reject… button.
  const [focusNext, setFocusNext] = useState<'state' | 'reject' | null>(null);
  useEffect(() => { if (rejecting) reasonRef.current?.focus(); }, [rejecting]);
  useEffect(() => {
    if (focusNext === 'state') stateRef.current?.focus();
    else if (focusNext === 'reject') rejectRef.current?.focus();
    if (focusNext) setFocusNext(null);
  }, [focusNext]);
  usePanelUnsaved(rejecting && reason.trim() !== '');

  async function send(status: 'verified' | 'rejected') {
    if (busy) return;
    if (status === 'rejected' && !reason.trim()) { setFieldError('Please give a reason for rejecting this document'); reasonRef.current?.focus(); return; }
    setBusy(true); setFieldError(null);
    try {
      const result = await saveApi<ReviewResult>(`/api/admin/applications/${applicationId}/documents/${item.slot}`, { method: 'PUT', json: { status, reason: status === 'rejected' ? reason.trim() : '', uploadId: item.upload?.id, expectedState: item.state === 'missing' ? undefined : item.state } });
      onDone(result);
      toast({ title: status === 'verified' ? 'Document verified' : 'Document rejected', description: status === 'rejected' ? rejectedToastText(result.decided) : item.label, variant: 'success' });
      setRejecting(false); setReason(''); setFocusNext('state');
    } catch (e) {
      if (e instanceof ApiError && e.fields?.reason) { setFieldError(e.fields.reason); reasonRef.current?.focus(); } else if (e instanceof ApiError && e.status === 409) {
        // The applicant replaced the file, or another admin verified or rejected it, since this list was read: show that.
        toast({ title: 'Not saved', description: e.userMessage, variant: 'destructive' });
        onStale();
      } else {
        toast({ title: 'Update failed', description: e instanceof ApiError ? e.userMessage : 'An error occurred', variant: 'destructive' });
      }
    } finally { setBusy(false); }
  }

  const fid = `reason-${item.slot}`;
  return (
    <li className="rounded-md border border-slate-200 p-3 dark:border-slate-700" data-review-slot={item.slot}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        {/* Read once, with the state ("ID Document: Rejected", the element that takes the focus after a review). */}
        <span className="font-medium" aria-hidden="true">{item.label}</span>
        <span ref={stateRef} tabIndex={-1} className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_CLASS[item.state]}`}><span className="sr-only">{item.label}: </span>{STATE_LABEL[item.state]}</span>
      </div>
      {item.upload ? (
        <>
          <p className="flex flex-wrap items-baseline gap-x-2"><span className="break-all" data-testid={`file-${item.slot}`}>{item.upload.name}</span><span className="muted">{formatBytes(item.upload.size)}</span></p>
          <p className="flex flex-wrap gap-x-4">
            {viewable(item.upload.name) && <a className={LINK} href={`${fileUrl(item.upload.id)}?inline=1`} target="_blank" rel="noopener">View<span className="sr-only"> {item.label} (opens in a new tab)</span></a>}
            <a className={LINK} href={fileUrl(item.upload.id)} download>Download<span className="sr-only"> {item.label}</span></a>
          </p>
          {item.upload.sha256 && <p className="break-all font-mono text-xs muted">Receipt code: {item.upload.sha256}</p>}
          {item.state === 'rejected' && item.reason && <p className="mt-1">Reason given: {item.reason}</p>}
          {rejecting ? (
            <div className="mt-2 grid gap-2">
              <label htmlFor={fid} className="label">Reason (shown to the applicant)</label>
              <textarea ref={reasonRef} id={fid} className="input" rows={2} maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)}
                aria-invalid={fieldError ? true : undefined} aria-describedby={fieldError ? `${fid}-error` : undefined} />
              {fieldError && <p id={`${fid}-error`} role="alert" className="field-error">{fieldError}</p>}
              <div className="flex flex-wrap gap-2">
                {/* aria-disabled while saving: a disabled button would drop the focus. */}
                <button type="button" className="btn-danger aria-disabled:cursor-not-allowed aria-disabled:opacity-60" aria-disabled={busy || undefined} onClick={() => void send('rejected')}>{busy ? 'Saving…' : 'Reject document'}</button>
                <button type="button" className="btn-secondary aria-disabled:cursor-not-allowed aria-disabled:opacity-60" aria-disabled={busy || undefined} onClick={() => { if (busy) return; setRejecting(false); setFieldError(null); setFocusNext('reject'); }}>Cancel</button>
              </div>
            </div>
          ) : (
            <div className="mt-2 flex flex-wrap gap-2">
              <button type="button" className="btn-primary px-2 py-1 aria-disabled:cursor-not-allowed aria-disabled:opacity-60" disabled={item.state === 'verified'} aria-disabled={busy || undefined} onClick={() => void send('verified')} aria-label={`Verify ${item.label}`}>Verify</button>
              <button ref={rejectRef} type="button" className="btn-danger px-2 py-1 aria-disabled:cursor-not-allowed aria-disabled:opacity-60" aria-disabled={busy || undefined} onClick={() => { if (!busy) setRejecting(true); }} aria-label={`Reject ${item.label}`}>Reject…</button>
            </div>
          )}
        </>
      ) : <p className="muted">Not provided</p>}
    </li>
  );
}
