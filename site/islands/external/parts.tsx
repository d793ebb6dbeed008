/** The students table shared by the external branch and student pages. */
import type { ExternalStudent } from '#contracts/external.ts';
import { formatStaffDate } from '../../lib/format.ts';
import { StatusBadge } from '../ui/StatusBadge.tsx';

/** The students table shared by the branch and student pages. */
export function StudentTable({ students, caption }: { students: ExternalStudent[]; caption: string }) {
  return (
    <div className="card overflow-x-auto" tabIndex={0} role="region" aria-label={caption}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 dark:border-slate-700 dark:bg-slate-800">
          <tr>{['Name', 'Email', 'Phone', 'Campus', 'Course', 'Status', 'Enrolled'].map((h) => <th key={h} scope="col" className="px-3 py-2 font-semibold">{h}</th>)}</tr>
        </thead>
        <tbody>
          {students.map((s) => (
            <tr key={s.id} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
              <td className="px-3 py-2 font-medium">{s.name}</td>
              <td className="px-3 py-2 break-all">{s.email}</td>
              <td className="px-3 py-2">{s.phone ?? '—'}</td>
              <td className="px-3 py-2">{s.campus}</td>
              <td className="px-3 py-2">{s.course}</td>
              <td className="px-3 py-2"><StatusBadge status={s.status} /></td>
              <td className="px-3 py-2 whitespace-nowrap">{formatStaffDate(s.enrollmentDate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
