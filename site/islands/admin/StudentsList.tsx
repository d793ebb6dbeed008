/**
 * Admin students (issue #6; DESIGN §4 "admin Students list (real users)"): search by name, e-mail or phone,
 * contact details, each student's applications and erasure requests. Empty: 'No students found matching your search.'
 */
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { appRef, countryName, formatStaffDateTime } from '../../lib/format.ts';
import { useAdminAccess } from './use-admin.ts';
import { $students, $studentsQuery } from './admin-stores.ts';
import { useLastData } from '../ui/use-last-data.ts';
import { AccessGate, Empty } from './admin-ui.tsx';
import { ErrorState } from '../ui/ErrorState.tsx';
import { SkeletonRows } from '../ui/SkeletonRows.tsx';
import { StatusBadge } from '../ui/StatusBadge.tsx';
import { Pager } from '../ui/Pager.tsx';

/** Registered students for admins (page /admin/students and the dashboard tab; `heading` false inside the tab). */
export default function StudentsList({ heading = true }: { heading?: boolean }) {
  const access = useAdminAccess();
  return <AccessGate access={access}><List heading={heading} /></AccessGate>;
}

function List({ heading }: { heading: boolean }) {
  const [q, setQ] = useState('');
  const [term, setTerm] = useState('');
  const [page, setPage] = useState(1);
  useEffect(() => { const h = setTimeout(() => { setTerm(q.trim()); setPage(1); }, 300); return () => clearTimeout(h); }, [q]);
  const query = new URLSearchParams({ q: term, page: String(page), pageSize: '25' }).toString();
  useEffect(() => { $studentsQuery.set(query); }, [query]);
  const list = useStore($students);
  const data = useLastData(list.data);
  const error = Boolean(list.error);
  const load = () => $students.revalidate();
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
                <li key={s.id} className="card p-4" data-testid="student">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <h3 className="font-semibold">{s.name}</h3>
                    <span className="text-xs muted">Registered {formatStaffDateTime(s.createdAt)}</span>
                  </div>
                  <p className="text-sm [overflow-wrap:anywhere]"><a className="underline" href={`mailto:${s.email}`}>{s.email}</a>{s.phone && <> · <a className="underline" href={`tel:${s.phone}`}>{s.phone}</a></>}</p>
                  {(s.addressLine1 || s.city) && <p className="text-sm muted">{[s.addressLine1, s.city, countryName(s.country)].filter(Boolean).join(', ')}</p>}
                  {s.erasureRequests.length > 0 && (
                    <p className="mt-2 rounded bg-orange-50 p-2 text-sm text-orange-900 dark:bg-orange-950 dark:text-orange-100">
                      Erasure request{s.erasureRequests.length > 1 ? 's' : ''}: {s.erasureRequests.map((e) => `${e.status} since ${formatStaffDateTime(e.createdAt)}${e.reason ? ` (“${e.reason}”)` : ''}`).join('; ')}
                    </p>)}
                  {s.applications.length === 0 ? <p className="mt-2 text-sm muted">No applications yet.</p> : (
                    <ul className="mt-2 space-y-1 text-sm">
                      {s.applications.map((a) => <li key={a.id} className="flex flex-wrap items-center gap-2"><span className="font-mono">{appRef(a.id)}</span> {a.course} <StatusBadge status={a.status} /></li>)}
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
