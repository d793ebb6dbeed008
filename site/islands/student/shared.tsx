/**
 * Pieces shared by the applicant islands (wizard, My Applications, application detail, student dashboard):
 * progress per spec §4, the login guard and the spinner. The status badge is islands/ui/StatusBadge.tsx.
 */
import { progressFor } from '#contracts/statuses.ts';
import { flashToast } from '../../stores/toasts.ts';

import type { CourseSummary } from '#contracts/application-views.ts';

/** Progress bar with its percent (spec §4 progress per status). */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  return (
    <div>
      <div className="flex justify-between text-xs muted"><span>{label}</span><span>{value}%</span></div>
      <div role="progressbar" aria-label={label} aria-valuenow={value} aria-valuemin={0} aria-valuemax={100} className="mt-1 h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700">
        <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${value}%` }} />
      </div>
    </div>
  );
}

/** Progress percent of an application by its status (spec §4: pending 20 … rejected 100, other 0). */
export const applicationProgress = (a: { status: string }): number => progressFor(a.status);
/** The course's name, else its title, else 'Unknown Course' (spec §2 My Applications). */
export const courseName = (a: { course: CourseSummary | null }): string => a.course?.name || a.course?.title || 'Unknown Course';

/** Sends the visitor to /login, keeping the page to come back to. */
export function redirectToLogin(withRedirect = true, toastOpts?: { title: string; description: string }) {
  // Stored as the page goes away, so this page's own Toaster (hydrating on idle) cannot consume it first.
  if (toastOpts) window.addEventListener('pagehide', () => flashToast({ ...toastOpts, variant: 'destructive' }), { once: true });
  const here = window.location.pathname + window.location.search;
  window.location.replace(withRedirect ? `/login?redirect=${encodeURIComponent(here)}` : '/login');
}

/** Full-area loading spinner with a text alternative. */
export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div role="status" className="flex items-center justify-center gap-3 py-16">
      <span aria-hidden="true" className="h-8 w-8 animate-spin rounded-full border-4 border-slate-300 border-t-brand-700" />
      <span className="muted">{label}</span>
    </div>
  );
}
