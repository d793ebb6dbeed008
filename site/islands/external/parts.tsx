/** The students table shared by the external branch and student pages. */
import type { ExternalStudent } from '#contracts/external.ts';
import { formatStaffDate } from '../../lib/format.ts';
import { formatPhone } from '../../lib/phone.ts';
import { StatusBadge } from '../ui/StatusBadge.tsx';
import { CARD_ROWS } from '../ui/card-rows.ts';

/** The students table shared by the branch and student pages. */
export function StudentTable({ students, caption }: { students: ExternalStudent[]; caption: string }) {
  return (
    <div className="card overflow-x-auto" tabIndex={0} role="region" aria-label={caption}>
      <table className={`w-full text-left text-sm ${CARD_ROWS.block}`}>
        <caption className="sr-only">{caption}</caption>
        <thead className={`border-b border-slate-200 bg-slate-50 dark:border-slate-700 dark:bg-slate-800 ${CARD_ROWS.visuallyHidden}`}>
          <tr>{['Name', 'Email', 'Phone', 'Campus', 'Course', 'Status', 'Enrolled'].map((h) => <th key={h} scope="col" className="px-3 py-2 font-semibold">{h}</th>)}</tr>
        </thead>
        <tbody className={CARD_ROWS.block}>
          {students.map((s) => (
            <tr key={s.id} className={`border-b border-slate-100 last:border-0 dark:border-slate-800 ${CARD_ROWS.row}`}>
              <td className={`px-3 py-2 font-medium ${CARD_ROWS.cell}`}>{s.name}</td>
              <td className={`px-3 py-2 wrap-anywhere ${CARD_ROWS.labelled}`} data-label="Email">{s.email}</td>
              <td className={`px-3 py-2 ${CARD_ROWS.labelled}`} data-label="Phone">{formatPhone(s.phone) || '—'}</td>
              <td className={`px-3 py-2 ${CARD_ROWS.labelled}`} data-label="Campus">{s.campus}</td>
              <td className={`px-3 py-2 ${CARD_ROWS.labelled}`} data-label="Course">{s.course}</td>
              <td className={`px-3 py-2 ${CARD_ROWS.labelled} max-[20em]:flex-wrap`} data-label="Status"><StatusBadge status={s.status} /></td>
              <td className={`px-3 py-2 whitespace-nowrap ${CARD_ROWS.labelled}`} data-label="Enrolled">{formatStaffDate(s.enrollmentDate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
