/**
 * /admin/branches (spec §2 External branches): a Branches tab (name, location, established year, live
 * student count) and a Students tab for one branch (50 a page, 'Showing X–Y of Z'). Errors: 'Failed to load branch data. Please try again
 * later.' (§8). Reads branches only once the connection check says connected; without an external login it offers
 * the external login instead of data (a "Not connected" card, no data read).
 */
import { useCallback, useEffect, useState } from 'react';
import * as Tabs from '@radix-ui/react-tabs';
import type { ExternalBranch, ExternalBranchStudentsPage } from '#contracts/external.ts';
import { Pager } from '../ui/Pager.tsx';
import { api } from '../../lib/api-client.ts';
import { ExternalHeader } from './ExternalHeader.tsx';
import { StudentTable } from './parts.tsx';
import { ErrorState } from '../ui/ErrorState.tsx';
import { SkeletonRows } from '../ui/SkeletonRows.tsx';
import { externalLoginUrl, isExternalLoginRequired } from './external-client.ts';
import { useExternalConnection } from './use-external-connection.ts';

type Load<T> = { state: 'loading' } | { state: 'error' } | { state: 'login' } | { state: 'ok'; data: T };

const BRANCH_ERROR = 'Failed to load branch data. Please try again later.';
const STUDENT_ERROR = 'Failed to load student data. Please try again later.';

/** The /admin/branches island (see the file comment). */
export default function ExternalBranches() {
  const [conn, checkConnection] = useExternalConnection();
  const connected = conn.state === 'connected';
  const user = conn.state === 'connected' ? conn.user : null;
  const [branches, setBranches] = useState<Load<ExternalBranch[]>>({ state: 'loading' });
  const [tab, setTab] = useState('branches');
  const [branchId, setBranchId] = useState<string>('');
  const [students, setStudents] = useState<Load<ExternalBranchStudentsPage> | null>(null);
  const [page, setPage] = useState(1);

  const loadBranches = useCallback(async () => {
    setBranches({ state: 'loading' });
    try {
      const r = await api<{ branches: ExternalBranch[] }>('/api/external/branches');
      setBranches({ state: 'ok', data: r.branches });
      setBranchId((id) => id || r.branches[0]?.id || '');
    } catch (e) {
      setBranches(isExternalLoginRequired(e) ? { state: 'login' } : { state: 'error' });
    }
  }, []);

  const loadStudents = useCallback(async (id: string, p: number) => {
    if (!id) return;
    setStudents((prev) => (prev?.state === 'ok' ? prev : { state: 'loading' }));
    try {
      const r = await api<ExternalBranchStudentsPage>(`/api/external/branches/${encodeURIComponent(id)}/students?page=${p}`);
      setStudents({ state: 'ok', data: r });
    } catch (e) {
      setStudents(isExternalLoginRequired(e) ? { state: 'login' } : { state: 'error' });
    }
  }, []);

  useEffect(() => { if (connected) void loadBranches(); }, [connected, loadBranches]);
  useEffect(() => { if (connected && tab === 'students') void loadStudents(branchId, page); }, [connected, tab, branchId, page, loadStudents]);

  if (conn.state === 'not-connected' || branches.state === 'login') return <ConnectPrompt />;

  const list = branches.state === 'ok' ? branches.data : [];
  const selected = list.find((b) => b.id === branchId);

  return (
    <div>
      <ExternalHeader current="/admin/branches" user={user} />
      <Tabs.Root value={tab} onValueChange={setTab}>
        {/* The tabs wrap inside the screen, and their side padding stops growing with the text on a phone (max(16 px, 4vw):
            16 px at normal text as before): with 200 % text at 360 px the strip reached x=417. */}
        <Tabs.List aria-label="Branch views" className="mb-4 inline-flex max-w-full flex-wrap rounded-md bg-slate-100 p-1 dark:bg-slate-800">
          {[['branches', 'Branches'], ['students', 'Students']].map(([value, label]) => (
            <Tabs.Trigger key={value} value={value}
              className="rounded px-[min(1rem,max(16px,4vw))] py-1.5 text-sm font-medium text-slate-700 data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow dark:text-slate-200 dark:data-[state=active]:bg-slate-900 dark:data-[state=active]:text-white">
              {label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>

        <Tabs.Content value="branches">
          {conn.state === 'error' && <ErrorState message={BRANCH_ERROR} onRetry={checkConnection} />}
          {conn.state !== 'error' && branches.state === 'loading' && <SkeletonCards />}
          {branches.state === 'error' && <ErrorState message={BRANCH_ERROR} onRetry={loadBranches} />}
          {branches.state === 'ok' && (list.length === 0 ? <p className="muted">No branches found.</p> : (
            <ul className="grid gap-4 sm:grid-cols-2" aria-label="Branches">
              {list.map((b) => (
                <li key={b.id} className="card p-5" data-testid="branch-card">
                  <h2 className="text-lg font-semibold">{b.name}</h2>
                  <p className="muted mt-1 text-sm">{b.location}</p>
                  <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
                    <div><dt className="muted">Established</dt><dd className="font-semibold">{b.established}</dd></div>
                    <div><dt className="muted">Active students</dt><dd className="font-semibold" data-testid="student-count">{b.studentCount}</dd></div>
                  </dl>
                  <button type="button" className="btn-secondary mt-4" onClick={() => { setBranchId(b.id); setPage(1); setStudents(null); setTab('students'); }}>
                    View students<span className="sr-only"> of {b.name}</span>
                  </button>
                </li>
              ))}
            </ul>
          ))}
        </Tabs.Content>

        <Tabs.Content value="students">
          {conn.state === 'error' && <ErrorState message={BRANCH_ERROR} onRetry={checkConnection} />}
          {branches.state === 'error' && <ErrorState message={BRANCH_ERROR} onRetry={loadBranches} />}
          {branches.state === 'ok' && (
            <div>
              <div className="mb-4 max-w-xs">
                <label htmlFor="branch-select" className="label">Branch</label>
                <select id="branch-select" className="input" value={branchId} onChange={(e) => { setBranchId(e.target.value); setPage(1); setStudents(null); }}>
                  {list.map((b) => <option key={b.id} value={b.id}>{b.name}</option>)}
                </select>
              </div>
              {students?.state === 'loading' && <SkeletonRows label="Loading students" />}
              {students?.state === 'error' && <ErrorState message={STUDENT_ERROR} onRetry={() => loadStudents(branchId, page)} />}
              {students?.state === 'login' && <ConnectPrompt />}
              {students?.state === 'ok' && (students.data.total === 0
                ? <p className="muted">No students at {selected?.name ?? 'this branch'} yet.</p>
                : <>
                  <StudentTable students={students.data.students} caption={`Students at ${selected?.name ?? 'this branch'}`} />
                  <Pager page={students.data.page} pageSize={students.data.pageSize} total={students.data.total} onPage={setPage} label="Branch students pages" />
                </>)}
            </div>
          )}
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}

function ConnectPrompt() {
  return (
    <div className="card p-6">
      <h2 className="text-lg font-semibold">Not connected to the external system</h2>
      <p className="muted mt-1">Branch data comes from the administration system, which needs its own login.</p>
      <a className="btn-primary mt-4" href={externalLoginUrl()}>Log in to the external system</a>
    </div>
  );
}

function SkeletonCards() {
  return (
    <div className="grid gap-4 sm:grid-cols-2" role="status" aria-busy="true">
      <span className="sr-only">Loading branches...</span>
      {[0, 1, 2, 3].map((i) => <div key={i} className="skeleton h-40" />)}
    </div>
  );
}
