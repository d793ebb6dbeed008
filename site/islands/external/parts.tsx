/** Presentational parts shared by the external islands: students table, error card, loading rows. */
import type { ExternalStudent } from '#contracts/external.ts';
import { StatusBadge } from './ExternalHeader.tsx';
import { formatShortDate } from './external-client.ts';

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
              <td className="px-3 py-2 whitespace-nowrap">{formatShortDate(s.enrollmentDate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** An error message (role alert) with a 'Try again' button. */
export function ErrorCard({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="rounded-md border border-red-700 bg-red-50 p-4 text-red-900 dark:bg-red-950 dark:text-red-100">
      <p>{message}</p>
      <button type="button" className="btn-secondary mt-3" onClick={onRetry}>Try again</button>
    </div>
  );
}

/** Five placeholder rows announced as loading. */
export function SkeletonRows({ label = 'Loading students' }: { label?: string }) {
  return (
    <div className="space-y-2" role="status" aria-busy="true">
      <span className="sr-only">{label}...</span>
      {[0, 1, 2, 3, 4].map((i) => <div key={i} className="skeleton h-9" />)}
    </div>
  );
}
