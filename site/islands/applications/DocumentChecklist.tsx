/**
 * The applicant's checklist per document on /applications/{id} (issue #16 point 3): each slot shows
 * Received (with size, and the SHA-256 as the receipt code under "Proof of receipt": plain words first, the code kept
 * for staff and disputes), Verified, or Rejected with the admin's reason. A rejected document — and only that one —
 * can be replaced here (PUT /api/applications/{id}/documents/{slot}), unless `replaceAbove` says the page asks for it
 * in its own upload area (documents_required: one upload control per document, usability audit November 2026), or
 * `decided` says the application is accepted or rejected: it is closed, so a rejected document shows its reason and
 * DECIDED_NOTE, read-only (the API refuses the replacement with a 409; one decided while the page was open says so).
 */
import { formatBytes, formatDateTime } from '../../lib/format.ts';
import { useEffect, useRef, useState } from 'react';
import type { Checklist, ChecklistItem } from '#contracts/document-reviews.ts';
import { api, ApiError } from '../../lib/api-client.ts';
import { saveApi } from '../ui/save-api.ts';
import { toast } from '../../stores/toasts.ts';
import { DocumentSlot, type SlotFile } from './DocumentSlot.tsx';
import { BusyButton } from '../ui/BusyButton.tsx';

export const STATE_LABEL: Record<ChecklistItem['state'], string> = { missing: 'Not provided', received: 'Received', verified: 'Verified', rejected: 'Rejected' };
export const STATE_CLASS: Record<ChecklistItem['state'], string> = {
  missing: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
  received: 'bg-sky-100 text-sky-900 dark:bg-sky-900 dark:text-sky-100',
  verified: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100',
  rejected: 'bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-100',
};

/** Why a rejected document of a decided (accepted or rejected) application offers no replacement. */
export const DECIDED_NOTE = 'This application has been decided, so its documents can no longer be replaced.';

/** Loads and shows the checklist of application `applicationId`; `onChanged` runs after a replacement. */
export function DocumentChecklist({ applicationId, onChanged, replaceAbove, decided }: { applicationId: number; onChanged?: () => void; replaceAbove?: boolean; decided?: boolean }) {
  const [list, setList] = useState<Checklist | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function load() {
    try { setList(await api<Checklist>(`/api/applications/${applicationId}/checklist`)); setError(null); } catch (e) {
      setError(e instanceof ApiError ? e.userMessage : 'The document checklist could not be loaded.');
    }
  }
  useEffect(() => { void load(); }, [applicationId]);

  return (
    <section className="card p-6" aria-labelledby="docs-h">
      <h2 id="docs-h" className="mb-4 text-xl font-semibold">Documents</h2>
      {error && <div role="alert"><p>{error}</p><button type="button" className="btn-secondary mt-2" onClick={() => void load()}>Try again</button></div>}
      {!list && !error && <p className="muted" aria-live="polite">Loading documents…</p>}
      {list && (
        <ul className="space-y-4 text-sm" data-testid="document-checklist">
          {list.items.map((item) => <ChecklistRow key={item.slot} item={item} applicationId={applicationId} replaceAbove={replaceAbove} decided={decided} onReplaced={(c) => { setList(c); onChanged?.(); }} />)}
        </ul>
      )}
    </section>
  );
}

function ChecklistRow({ item, applicationId, onReplaced, replaceAbove, decided }: { item: ChecklistItem; applicationId: number; onReplaced: (c: Checklist) => void; replaceAbove?: boolean; decided?: boolean }) {
  const [file, setFile] = useState<SlotFile | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // After a replacement the rejected block, and the Send button that had the focus, are gone: the focus goes to the
  // document's new state (tabIndex -1), not to <body> (WCAG 2.4.3; phone audit 2026-11-28), as on the admin side.
  const stateRef = useRef<HTMLSpanElement>(null);
  const [focusState, setFocusState] = useState(false);
  useEffect(() => { if (focusState) { stateRef.current?.focus(); setFocusState(false); } }, [focusState]);

  async function replace() {
    if (!file || busy) return;
    const sent = file;
    setBusy(true); setError(null);
    try {
      onReplaced(await saveApi<Checklist>(`/api/applications/${applicationId}/documents/${item.slot}`, { method: 'PUT', json: { uploadId: sent.id } }));
      setFocusState(true);
      toast({ title: 'Document replaced', description: `${item.label} was sent for review.`, variant: 'success' });
      setFile((f) => (f?.id === sent.id ? null : f));
    } catch (e) {
      setError(e instanceof ApiError ? e.userMessage : 'The document could not be sent. Please try again.');
    } finally { setBusy(false); }
  }

  return (
    <li className="border-b border-slate-200 pb-3 last:border-0 dark:border-slate-700" data-slot-state={item.slot}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        {/* Read once, with the state: the visible label is hidden from screen readers, which heard "ID Document, ID
            Document: Received" (review, 2026-11-28), as on the admin side (DocumentReviews). */}
        <span className="font-medium" aria-hidden="true">{item.label}</span>
        {/* The focus target after a replacement; its name says which document ("ID Document: Received"). */}
        <span ref={stateRef} tabIndex={-1} className="rounded-full"><span className="sr-only">{item.label}: </span><span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_CLASS[item.state]}`} data-testid={`state-${item.slot}`}>{STATE_LABEL[item.state]}</span></span>
      </div>
      {item.upload && (
        <p className="mt-1">
          <a className="underline" href={`/api/uploads/${encodeURIComponent(item.upload.id)}`} download>{item.upload.name}<span className="sr-only"> download</span></a>
          <span className="muted"> · {formatBytes(item.upload.size)} · received {formatDateTime(item.upload.createdAt)}</span>
        </p>
      )}
      {item.upload?.sha256 && (
        <details className="mt-1 text-xs">
          {/* py-1: a 24 px tall target (WCAG 2.5.8; was 16 px), keeping the summary's disclosure triangle (display list-item). */}
          <summary className="cursor-pointer py-1 muted">Proof of receipt</summary>
          <p className="mt-1">The code of the file we received. If you ever need to show which file you sent, give this code.</p>
          <p className="mt-1 break-all font-mono muted" >Receipt code: {item.upload.sha256}</p>
        </details>
      )}
      {item.state === 'rejected' && decided && (
        <div className="mt-2 rounded-md bg-red-50 p-3 dark:bg-red-950" data-testid={`decided-${item.slot}`}>
          <p><span className="font-semibold">Reason:</span> {item.reason}</p>
          <p className="mt-1">{DECIDED_NOTE}</p>
        </div>
      )}
      {item.state === 'rejected' && !decided && replaceAbove && (
        <p className="mt-2 rounded-md bg-red-50 p-3 dark:bg-red-950"><span className="font-semibold">Reason:</span> {item.reason} <a className="underline" href="#missing-h">Upload a new one above</a></p>
      )}
      {item.state === 'rejected' && !decided && !replaceAbove && (
        <div className="mt-2 rounded-md bg-red-50 p-3 dark:bg-red-950">
          <p role="status"><span className="font-semibold">Reason:</span> {item.reason}</p>
          {/* Unavailable while sending: a file picked then was silently dropped by the success (phone audit, 2026-11-27). */}
          <fieldset className="mt-2 min-w-0" disabled={busy}>
            <DocumentSlot slot={`replace-${item.slot}`} label={`New ${item.label}`} required value={file} onChange={setFile}
              onDiscard={(id) => { void api(`/api/uploads/${encodeURIComponent(id)}`, { method: 'DELETE' }).catch(() => {}); }} />
            {busy && <p className="mt-1 text-sm muted">Sending… The file cannot be changed until this is done.</p>}
          </fieldset>
          {error && <p role="alert" className="field-error">{error}</p>}
          <BusyButton className="btn-primary mt-2" disabled={!file} busy={busy} onClick={() => void replace()}>{busy ? 'Sending...' : `Send new ${item.label}`}</BusyButton>
        </div>
      )}
    </li>
  );
}
