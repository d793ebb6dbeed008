/**
 * /admin/external-students (spec §2): search and status filter (active, pending, graduated, withdrawn),
 * kept in the URL with the page (50 students a page, 'Showing X–Y of Z'); empty state 'No students found matching your search.'; §8 errors 'Failed to load student
 * data. Please try again later.' (first load) and 'Error loading student data. Please try again.' (a later
 * search). Reads students only once the connection check says connected; not connected → /admin/external-login?redirect=….
 */
import { useEffect, useRef, useState } from 'react';
import type { ExternalStudentsPage } from '#contracts/external.ts';
import { Pager } from '../ui/Pager.tsx';
import { EXTERNAL_STUDENT_STATUSES } from '#contracts/external-options.ts';
import { api } from '../../lib/api-client.ts';
import { ExternalHeader } from './ExternalHeader.tsx';
import { StudentTable } from './parts.tsx';
import { ErrorState } from '../ui/ErrorState.tsx';
import { SkeletonRows } from '../ui/SkeletonRows.tsx';
import { EnrolStudentButtons } from './EnrolStudent.tsx';
import { goToExternalLogin, isExternalLoginRequired } from './external-client.ts';
import { useExternalConnection } from './use-external-connection.ts';

const FIRST_LOAD_ERROR = 'Failed to load student data. Please try again later.';
const LATER_ERROR = 'Error loading student data. Please try again.';

/** The /admin/external-students island (see the file comment). */
export default function ExternalStudents() {
  const [conn, checkConnection] = useExternalConnection();
  const connected = conn.state === 'connected';
  const user = conn.state === 'connected' ? conn.user : null;
  const [filters, setFilters] = useState<{ search: string; status: string } | null>(null);
  const [query, setQuery] = useState<{ search: string; status: string } | null>(null);
  const [data, setData] = useState<ExternalStudentsPage | null>(null);
  const [page, setPage] = useState(1);
  const students = data?.students ?? null;
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  const loadedOnce = useRef(false);

  useEffect(() => {
    const p = new URLSearchParams(window.location.search);
    const f = { search: p.get('search') ?? '', status: (EXTERNAL_STUDENT_STATUSES as readonly string[]).includes(p.get('status') ?? '') ? p.get('status')! : '' };
    setFilters(f); setQuery(f);
    const n = Number(p.get('page'));
    if (Number.isInteger(n) && n > 1) setPage(n);
  }, []);

  useEffect(() => { if (conn.state === 'not-connected') goToExternalLogin(); }, [conn.state]);

  // Typing settles for 300 ms before a search runs.
  useEffect(() => {
    if (!filters) return;
    const t = setTimeout(() => setQuery(filters), 300);
    return () => clearTimeout(t);
  }, [filters]);

  useEffect(() => {
    if (!query || !connected) return undefined;
    const ctrl = new AbortController();
    const qs = new URLSearchParams();
    if (query.search.trim()) qs.set('search', query.search.trim());
    if (query.status) qs.set('status', query.status);
    if (page > 1) qs.set('page', String(page));
    const s = qs.toString();
    window.history.replaceState(null, '', `${window.location.pathname}${s ? `?${s}` : ''}`);
    setLoading(true);
    api<ExternalStudentsPage>(`/api/external/students${s ? `?${s}` : ''}`, { signal: ctrl.signal })
      // A page past the last (an old URL) is answered as the last page: the page, and the URL, follow it.
      .then((r) => { setData(r); setError(null); loadedOnce.current = true; setLoading(false); if (r.page !== page) setPage(r.page); })
      .catch((e) => {
        if (ctrl.signal.aborted) return;
        if (isExternalLoginRequired(e)) { goToExternalLogin(); return; }
        setError(loadedOnce.current ? LATER_ERROR : FIRST_LOAD_ERROR);
        setLoading(false);
      });
    return () => ctrl.abort();
  }, [query, page, reload, connected]);

  const f = filters ?? { search: '', status: '' };
  const filtered = Boolean(f.search.trim() || f.status);
  return (
    <div>
      <ExternalHeader current="/admin/external-students" user={user} />
      <div className="mb-4"><EnrolStudentButtons onEnrolled={() => setReload((n) => n + 1)} /></div>
      <form role="search" className="mb-4 grid gap-4 sm:grid-cols-[2fr_1fr]" onSubmit={(e) => { e.preventDefault(); setQuery(f); setPage(1); }}>
        <div>
          <label htmlFor="student-search" className="label">Search students</label>
          <input id="student-search" type="search" className="input" placeholder="Name, email, course or campus" value={f.search}
            onChange={(e) => { setFilters({ ...f, search: e.target.value }); setPage(1); }} maxLength={100} />
        </div>
        <div>
          <label htmlFor="student-status" className="label">Status</label>
          <select id="student-status" className="input" value={f.status} onChange={(e) => { setFilters({ ...f, status: e.target.value }); setPage(1); }}>
            <option value="">All statuses</option>
            {EXTERNAL_STUDENT_STATUSES.map((s) => <option key={s} value={s}>{s.charAt(0).toUpperCase() + s.slice(1)}</option>)}
          </select>
        </div>
      </form>
      <p className="muted mb-3 text-sm" role="status" aria-live="polite">
        {!loading && !error && data ? `${data.total.toLocaleString('en-US')} student${data.total === 1 ? '' : 's'}${filtered ? ' match' + (data.total === 1 ? 'es' : '') : ''}` : ''}
      </p>
      {conn.state === 'error' && <ErrorState message={FIRST_LOAD_ERROR} onRetry={checkConnection} />}
      {error && <ErrorState message={error} onRetry={() => setReload((n) => n + 1)} />}
      {!error && loading && !students && <SkeletonRows label="Loading students" />}
      {!error && students && (students.length === 0
        ? <div className="card p-8 text-center"><p className="font-semibold">No students found matching your search.</p></div>
        : <div className={loading ? 'opacity-60' : ''}><StudentTable students={students} caption="External students" /></div>)}
      {!error && data && <Pager page={data.page} pageSize={data.pageSize} total={data.total} busy={loading} onPage={setPage} label="External students pages" />}
    </div>
  );
}
