/**
 * Admin applications (spec §2 Applications; issue #6): search, status and course filters, sortable columns,
 * pagination (server side, so 10,000 applications stay fast), ids as APP-{id}, quick Approve (accepted) and
 * Reject on pending rows only, each confirmed first (decisionQuestion), bulk decisions with per-item results, CSV export of the current filter, and a
 * detail panel (ApplicationReview.tsx). On /admin/applications the search, filters, sort, page size and page are
 * kept in the address (url-query.ts; audit C item 3). Toasts 'Application updated' / 'Update failed' (spec §8).
 */
import { Pager } from '../ui/Pager.tsx';
import { oneOf, positiveInt, readUrlQuery, writeUrlQuery } from './url-query.ts';
import { useEffect, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import { APPLICATION_STATUSES, statusLabel } from '#contracts/statuses.ts';
import type { BulkResult } from '#contracts/admin.ts';
import { ApiError } from '../../lib/api-client.ts';
import { saveApi } from '../ui/save-api.ts';
import { CARD_ROWS } from '../ui/card-rows.ts';
import { toast } from '../../stores/toasts.ts';
import { appRef, formatStaffDateTime } from '../../lib/format.ts';
import { useAdminAccess } from './use-admin.ts';
import { $adminCourses, $applicationsPage, $applicationsQuery, refreshApplications } from './admin-stores.ts';
import { useLastData } from '../ui/use-last-data.ts';
import Panel from './Panel.tsx';
import { ApplicationReview, changeStatus, decisionFacts, decisionQuestion, failureText } from './ApplicationReview.tsx';
import { useConfirm } from './ConfirmDialog.tsx';
import { AccessGate, Empty } from './admin-ui.tsx';
import { ErrorState } from '../ui/ErrorState.tsx';
import { SkeletonRows } from '../ui/SkeletonRows.tsx';
import { StatusBadge } from '../ui/StatusBadge.tsx';
import { EligibilityBadge } from './EligibilityBadge.tsx';
import { BusyButton } from '../ui/BusyButton.tsx';

type Sort = 'createdAt' | 'id' | 'status' | 'applicant' | 'course' | 'aps';

/** The applications list for admins (page /admin/applications and the dashboard tab); `pageSize` rows per page to start with. */
export default function ApplicationsManager({ pageSize: initialSize = 20, heading = true }: { pageSize?: number; heading?: boolean }) {
  const access = useAdminAccess();
  return <AccessGate access={access}><Manager initialSize={initialSize} heading={heading} /></AccessGate>;
}

const SORTS: readonly Sort[] = ['createdAt', 'id', 'status', 'applicant', 'course', 'aps'];
/** A column's first direction: newest and highest APS first, names and the rest A–Z. */
const defaultDir = (s: Sort): 'asc' | 'desc' => (s === 'createdAt' || s === 'aps' ? 'desc' : 'asc');
const QUERY_KEYS = ['q', 'status', 'courseId', 'eligibility', 'sort', 'dir', 'page', 'pageSize'] as const;

function Manager({ initialSize, heading }: { initialSize: number; heading: boolean }) {
  // On its own page the list lives in the address (url-query.ts); inside the dashboard's tab it does not.
  const inUrl = heading;
  const [start] = useState(() => (inUrl ? readUrlQuery(QUERY_KEYS) : {}));
  const [q, setQ] = useState(start.q ?? '');
  const [term, setTerm] = useState((start.q ?? '').trim());
  const [status, setStatus] = useState(oneOf(start.status, ['all', ...APPLICATION_STATUSES], 'all'));
  const [courseId, setCourseId] = useState(/^\d+$/.test(start.courseId ?? '') ? start.courseId! : 'all');
  const [eligibility, setEligibility] = useState(oneOf(start.eligibility, ['all', 'eligible', 'not_eligible', 'unknown'], 'all'));
  const [sort, setSort] = useState<Sort>(oneOf(start.sort, SORTS, 'createdAt'));
  const [dir, setDir] = useState<'asc' | 'desc'>(oneOf(start.dir, ['asc', 'desc'] as const, defaultDir(oneOf(start.sort, SORTS, 'createdAt'))));
  const [page, setPage] = useState(positiveInt(start.page, 1));
  const [size, setSize] = useState(['10', '20', '50', '100'].includes(start.pageSize ?? '') ? Number(start.pageSize) : initialSize);
  const courses = useStore($adminCourses).data?.courses ?? [];
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [busy, setBusy] = useState<number | 'bulk' | null>(null);
  const [bulkResults, setBulkResults] = useState<BulkResult[] | null>(null);
  const [detailId, setDetailId] = useState<number | null>(null);

  // The search runs 300 ms after the typing stops; a term that did not change (the one read from the address) keeps the page.
  useEffect(() => { if (q.trim() === term) return; const h = setTimeout(() => { setTerm(q.trim()); setPage(1); }, 300); return () => clearTimeout(h); }, [q]);

  const params = { q: term, status, courseId, eligibility, sort, dir, page: String(page), pageSize: String(size) };
  const query = new URLSearchParams(params).toString();
  useEffect(() => {
    $applicationsQuery.set(query);
    if (inUrl) writeUrlQuery(params, { status: 'all', courseId: 'all', eligibility: 'all', sort: 'createdAt', dir: defaultDir(sort), page: '1', pageSize: String(initialSize) });
  }, [query]);
  const list = useStore($applicationsPage);
  const data = useLastData(list.data);
  const loading = list.loading;
  const error = list.error ? (list.error instanceof ApiError ? list.error.userMessage : 'Could not load applications.') : null;
  const load = refreshApplications;
  // A selection keeps only rows still on the page after each answer.
  useEffect(() => {
    const shown = list.data?.applications;
    if (shown) setSelected((sel) => new Set([...sel].filter((id) => shown.some((a) => a.id === id))));
  }, [list.data]);

  const sortBy = (s: Sort) => { if (s === sort) setDir(dir === 'asc' ? 'desc' : 'asc'); else { setSort(s); setDir(defaultDir(s)); } setPage(1); };
  const [confirmDialog, ask] = useConfirm();
  // A quick decision removes the row's Approve and Reject, which had the focus (and, under a status filter, the row):
  // once the list shows the change, the focus goes to the same action on the next row that still offers it, the row
  // that took the decided one's place or the first pending one below it, so a keyboard user works down the queue
  // (phone audit: it fell to the "ID" sort button). With no such row below, it goes to the list's heading (on the
  // dashboard tab, which has none, the list itself, else the count), never to <body>.
  const refocus = useRef<{ id: number; label: 'Approve' | 'Reject'; index: number } | null>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const regionRef = useRef<HTMLDivElement>(null);
  const countRef = useRef<HTMLSpanElement>(null);
  // An Approve first reads the application's document checklist (decisionFacts), so its question names rejected or
  // missing required documents as the panel's does (admin-day audit); the row's buttons show busy meanwhile.
  const quick = async (id: number, to: 'accepted' | 'rejected', shown: string) => {
    setBusy(id);
    const facts = await decisionFacts(id, to);
    setBusy(null);
    const question = decisionQuestion(id, shown, to, facts);
    if (question && !await ask(question)) return;
    setBusy(id);
    const index = Math.max(0, (list.data?.applications ?? []).findIndex((a) => a.id === id));
    if (await changeStatus(id, to, '', shown, load)) { refocus.current = { id, label: to === 'accepted' ? 'Approve' : 'Reject', index }; load(); }
    setBusy(null);
  };
  useEffect(() => {
    const target = refocus.current;
    const shown = list.data?.applications;
    if (target == null || !shown) return;
    const active = document.activeElement;
    const row = tableRef.current?.querySelector<HTMLElement>(`[aria-label="View ${appRef(target.id)}"]`)?.closest('tr');
    if (active && active !== document.body && active.isConnected) {
      // Still on the row's buttons (the list has not reloaded yet): wait; anywhere else, the person moved on.
      if (!row || active.closest('tr') !== row) refocus.current = null;
      return;
    }
    refocus.current = null;
    const at = shown.findIndex((a) => a.id === target.id);
    const next = shown.slice(at >= 0 ? at + 1 : target.index).find((a) => a.status === 'pending');
    const action = next && tableRef.current?.querySelector<HTMLElement>(`[aria-label="${target.label} ${appRef(next.id)}"]`);
    (action ?? headingRef.current ?? regionRef.current ?? countRef.current)?.focus();
  }, [list.data, busy]);
  const bulk = async (to: 'accepted' | 'rejected') => {
    const n = selected.size;
    const verb = to === 'accepted' ? 'Approve' : 'Reject';
    if (!await ask({ title: `${verb} ${n} application${n === 1 ? '' : 's'}?`, description: `Each selected pending application will be ${to === 'accepted' ? 'accepted' : 'rejected'} and every applicant will be e-mailed about the decision.`, action: `${verb} ${n}`, danger: to === 'rejected' })) return;
    setBusy('bulk');
    try {
      const r = await saveApi<{ results: BulkResult[] }>('/api/admin/applications/bulk', { method: 'POST', json: { ids: [...selected], status: to } });
      setBulkResults(r.results);
      const ok = r.results.filter((x) => x.ok).length;
      const failed = r.results.length - ok;
      toast(failed
        ? { title: 'Update failed', description: `${ok} updated, ${failed} not updated. See the results above the table.`, variant: 'destructive', persist: true }
        : { title: 'Application updated', description: `${ok} application${ok === 1 ? '' : 's'} ${to === 'accepted' ? 'approved' : 'rejected'}.`, variant: 'success' });
      setSelected(new Set());
      load();
    } catch (e) {
      toast({ title: 'Update failed', description: failureText(e), variant: 'destructive', persist: true });
    } finally { setBusy(null); }
  };

  const rows = data?.applications ?? [];
  // Previous/Next in the detail panel: the neighbouring rows of this page, then the last/first row of the page
  // before/after. An application that left the page after a decision (the status filter) keeps its old place: its
  // neighbours are the rows now at and before that place.
  const [advance, setAdvance] = useState<{ page: number; which: 'first' | 'last' } | null>(null);
  const [moved, setMoved] = useState<'previous' | 'next' | undefined>(undefined);
  const lastIndex = useRef(0);
  const at = detailId == null ? -1 : rows.findIndex((r) => r.id === detailId);
  if (at >= 0) lastIndex.current = at;
  const nextId = at >= 0 ? rows[at + 1]?.id : rows[lastIndex.current]?.id;
  const previousId = at >= 0 ? rows[at - 1]?.id : rows[lastIndex.current - 1]?.id;
  const open = (id: number, how: 'previous' | 'next') => { setMoved(how); setDetailId(id); };
  const turn = (to: number, which: 'first' | 'last', how: 'previous' | 'next') => { setMoved(how); setAdvance({ page: to, which }); setPage(to); };
  const onNext = nextId != null ? () => open(nextId, 'next') : data && data.page < data.pages ? () => turn(data.page + 1, 'first', 'next') : undefined;
  const onPrevious = previousId != null ? () => open(previousId, 'previous') : data && data.page > 1 ? () => turn(data.page - 1, 'last', 'previous') : undefined;
  useEffect(() => {
    const shown = list.data;
    if (!advance || !shown || shown.page !== advance.page) return;
    const r = shown.applications;
    if (r.length) setDetailId(advance.which === 'first' ? r[0]!.id : r[r.length - 1]!.id);
    setAdvance(null);
  }, [list.data, advance]);
  const pendingOnPage = rows.filter((a) => a.status === 'pending');
  const allPendingSelected = pendingOnPage.length > 0 && pendingOnPage.every((a) => selected.has(a.id));
  const th = (label: string, s: Sort) => (
    <th scope="col" aria-sort={sort === s ? (dir === 'asc' ? 'ascending' : 'descending') : 'none'} className={`px-3 py-2 text-left ${CARD_ROWS.headCell}`}>
      <button type="button" className="min-h-6 font-semibold hover:underline max-sm:min-h-11 max-sm:min-w-11" onClick={() => sortBy(s)}>
        {label}<span aria-hidden="true">{sort === s ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );

  return (
    <section aria-labelledby={heading ? 'apps-heading' : undefined}>
      {confirmDialog}
      {heading && <h1 ref={headingRef} id="apps-heading" tabIndex={-1} className="mb-4 text-2xl font-bold">Applications</h1>}
      <form role="search" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5" onSubmit={(e) => { e.preventDefault(); setTerm(q.trim()); setPage(1); }}>
        <div>
          <label htmlFor="app-search" className="label">Search</label>
          <input id="app-search" type="search" className="input" placeholder="Name, e-mail, course or APP-id" value={q} onChange={(e) => setQ(e.target.value)} />
        </div>
        <div>
          <label htmlFor="app-status" className="label">Status</label>
          <select id="app-status" className="input" value={status} onChange={(e) => { setStatus(e.target.value); setPage(1); }}>
            <option value="all">All statuses</option>
            {APPLICATION_STATUSES.map((s) => <option key={s} value={s}>{statusLabel(s)}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor="app-course" className="label">Course</label>
          <select id="app-course" className="input" value={courseId} onChange={(e) => { setCourseId(e.target.value); setPage(1); }}>
            <option value="all">All courses</option>
            {courses.map((c) => <option key={c.id} value={String(c.id)}>{c.title}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor="app-eligibility" className="label">Eligibility</label>
          <select id="app-eligibility" className="input" value={eligibility} onChange={(e) => { setEligibility(e.target.value); setPage(1); }}>
            <option value="all">All applicants</option>
            <option value="eligible">Meets requirements</option>
            <option value="not_eligible">Does not meet requirements</option>
            <option value="unknown">No NSC results</option>
          </select>
        </div>
        <div className="flex items-end gap-2">
          <a className="btn-secondary" href={`/api/admin/applications/export.csv?${query}`} download>Export CSV</a>
        </div>
      </form>

      <div className="mt-4 flex flex-wrap items-center gap-2" aria-live="polite">
        <span className="text-sm muted">{selected.size} selected</span>
        <BusyButton className="btn-primary" unavailable={selected.size === 0} busy={busy === 'bulk'} onClick={() => void bulk('accepted')}>Approve selected</BusyButton>
        <BusyButton className="btn-danger" unavailable={selected.size === 0} busy={busy === 'bulk'} onClick={() => void bulk('rejected')}>Reject selected</BusyButton>
        {data && <span ref={countRef} tabIndex={-1} className="ml-auto text-sm muted" data-testid="apps-count">{data.total.toLocaleString('en-US')} application{data.total === 1 ? '' : 's'}</span>}
      </div>
      {bulkResults && (
        <div className="card mt-3 p-3 text-sm" role="status">
          <div className="flex items-center justify-between"><p className="font-semibold">Bulk results</p>
            <button type="button" className="btn-secondary px-2 py-1" onClick={() => setBulkResults(null)}>Dismiss</button></div>
          <ul className="mt-1 space-y-0.5">
            {bulkResults.map((r) => <li key={r.id}>{appRef(r.id)}: {bulkOutcome(r)}</li>)}
          </ul>
        </div>
      )}

      <div className="mt-3">
        {error ? <ErrorState message={error} onRetry={load} />
          : !data ? <SkeletonRows rows={Math.min(size, 8)} label="Loading applications" />
          : rows.length === 0 ? <Empty>No applications found</Empty>
          : (
            <div ref={regionRef} className="card overflow-x-auto" aria-busy={loading} tabIndex={0} role="region" aria-label={`Applications, page ${data.page} of ${data.pages}`}>
              <table ref={tableRef} className={`w-full text-sm ${CARD_ROWS.block}`}>
                <caption className="sr-only">Applications, page {data.page} of {data.pages}</caption>
                <thead className={`border-b border-slate-200 dark:border-slate-700 ${CARD_ROWS.block}`}>
                  <tr className={CARD_ROWS.headRow}>
                    <th scope="col" className={`px-3 py-2 ${CARD_ROWS.headCell}`}><input type="checkbox" className="h-6 w-6 align-middle" aria-label="Select all pending applications on this page" checked={allPendingSelected}
                      disabled={pendingOnPage.length === 0}
                      onChange={(e) => setSelected(new Set(e.target.checked ? pendingOnPage.map((a) => a.id) : []))} /></th>
                    {th('ID', 'id')}{th('Applicant', 'applicant')}{th('Course', 'course')}{th('APS', 'aps')}
                    <th scope="col" className="px-3 py-2 text-left max-lg:hidden">Eligible</th>
                    {th('Status', 'status')}{th('Submitted', 'createdAt')}
                    <th scope="col" className="px-3 py-2 text-left max-lg:hidden">Actions</th>
                  </tr>
                </thead>
                <tbody className={CARD_ROWS.block}>
                  {rows.map((a) => (
                    <tr key={a.id} className={`border-b border-slate-100 last:border-0 dark:border-slate-800 ${CARD_ROWS.row} ${CARD_ROWS.rowWithCheck}`} data-testid="app-row">
                      <td className={`px-3 py-2 ${CARD_ROWS.checkCell}`}>{a.status === 'pending' && (
                        <input type="checkbox" className="h-6 w-6 align-middle" aria-label={`Select ${appRef(a.id)}`} checked={selected.has(a.id)}
                          onChange={(e) => setSelected((s) => { const n = new Set(s); if (e.target.checked) n.add(a.id); else n.delete(a.id); return n; })} />)}</td>
                      <td className={`px-3 py-2 font-mono whitespace-nowrap ${CARD_ROWS.cell} max-lg:font-semibold`}>{appRef(a.id)}</td>
                      <td className={`px-3 py-2 ${CARD_ROWS.cell}`}><span className="block font-medium">{a.applicant.name}</span><span className="block text-xs muted wrap-anywhere">{a.applicant.email}</span>{a.applicant.emailVerified === false && <NotVerified />}</td>
                      <td className={`px-3 py-2 ${CARD_ROWS.labelled} max-[20em]:flex-wrap`} data-label="Course"><span className="min-w-0 max-lg:wrap-anywhere">{a.course?.title ?? 'Unknown Course'}</span></td>
                      <td className={`px-3 py-2 tabular-nums ${CARD_ROWS.labelled}`} data-label="APS">{a.aps ?? '—'}</td>
                      <td className={`px-3 py-2 ${CARD_ROWS.labelled}`} data-label="Eligible"><EligibilityBadge eligible={a.eligible} reasons={a.eligibilityReasons} /></td>
                      <td className={`px-3 py-2 ${CARD_ROWS.labelled} max-[20em]:flex-wrap`} data-label="Status"><StatusBadge status={a.status} /></td>
                      <td className={`px-3 py-2 ${CARD_ROWS.labelled}`} data-label="Submitted">{formatStaffDateTime(a.createdAt)}</td>
                      <td className={`px-3 py-2 ${CARD_ROWS.cell} max-lg:pt-1`}>
                        <div className="flex flex-wrap gap-1">
                          <button type="button" className="btn-secondary px-2 py-1" onClick={() => { setMoved(undefined); setDetailId(a.id); }} aria-label={`View ${appRef(a.id)}`}>View</button>
                          {a.status === 'pending' && <>
                            <BusyButton className="btn-primary px-2 py-1" busy={busy === a.id} onClick={() => void quick(a.id, 'accepted', a.status)} aria-label={`Approve ${appRef(a.id)}`}>Approve</BusyButton>
                            <BusyButton className="btn-danger px-2 py-1" busy={busy === a.id} onClick={() => void quick(a.id, 'rejected', a.status)} aria-label={`Reject ${appRef(a.id)}`}>Reject</BusyButton>
                          </>}
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
      </div>

      {data && (
        <Pager page={data.page} pageSize={size} total={data.total} busy={loading} onPage={setPage}>
          <label htmlFor="app-size">Rows per page</label>
          <select id="app-size" className="input w-auto" value={size} onChange={(e) => { setSize(Number(e.target.value)); setPage(1); }}>
            {[10, 20, 50, 100].map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
        </Pager>
      )}

      <Panel open={detailId != null} onOpenChange={(o) => { if (!o) setDetailId(null); }} side
        title={detailId != null ? `Application ${appRef(detailId)}` : 'Application'}>
        {detailId != null && <ApplicationReview key={detailId} id={detailId} onChanged={load} onPrevious={onPrevious} onNext={onNext} focus={moved} />}
      </Panel>
    </section>
  );
}

/**
 * One line of the bulk results: 'updated to Accepted', or why not. An application that was no longer pending says
 * what it is now (audit C item 7; the API's `status` with the labels of spec §4) rather than only the rule it broke.
 */
function bulkOutcome(r: BulkResult): string {
  if (r.ok) return `updated to ${statusLabel(r.status ?? '')}`;
  if (r.status && r.status !== 'pending') return `not updated — it is now ${statusLabel(r.status)} (changed by someone else)`;
  return `not updated — ${r.error}`;
}

/** Flag for an applicant who never opened the e-mailed verification link (issue #12 finding 1). */
function NotVerified() {
  return <span className="mt-0.5 inline-block rounded bg-amber-100 px-1.5 text-xs font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-100">e-mail not verified</span>;
}
