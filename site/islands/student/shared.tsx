/**
 * Pieces shared by the applicant islands that list applications (My Applications, application detail, student
 * dashboard): progress per spec §4 and the course name. The status badge is islands/ui/StatusBadge.tsx, the
 * spinner islands/ui/Spinner.tsx and the login guard islands/auth/redirect-to-login.ts (the wizard needs only
 * those two, without this file's chunk of query stores: issue #17).
 */
import { progressFor } from '#contracts/statuses.ts';

import type { CourseSummary } from '#contracts/application-views.ts';

/** Progress bar with its percent (spec §4 progress per status). */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  return (
    <div>
      <div className="flex justify-between text-xs muted"><span>{label}</span><span>{value}%</span></div>
      <div role="progressbar" aria-label={label} aria-valuenow={value} aria-valuemin={0} aria-valuemax={100} className="mt-1 h-2 w-full overflow-hidden rounded-full border border-slate-200 bg-slate-200 dark:border-slate-700 dark:bg-slate-700">
        <div className="h-full rounded-full bg-brand-600 transition-[width] forced-colors:bg-[Highlight]" style={{ width: `${value}%` }} />
      </div>
    </div>
  );
}

/** Progress percent of an application by its status (spec §4: pending 20 … rejected 100, other 0). */
export const applicationProgress = (a: { status: string }): number => progressFor(a.status);
/** The course's name, else its title, else 'Unknown Course' (spec §2 My Applications). */
export const courseName = (a: { course: CourseSummary | null }): string => a.course?.name || a.course?.title || 'Unknown Course';
