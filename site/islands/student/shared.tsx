/**
 * Pieces shared by the applicant islands (wizard, My Applications, application detail, student dashboard):
 * polling that pauses while the tab is hidden (spec §9: notifications 15 s, applications 30 s),
 * progress per spec §4, the login guard and the spinner. The status badge is islands/ui/StatusBadge.tsx.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
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

export const applicationProgress = (a: { status: string }) => progressFor(a.status);
export const courseName = (a: { course: CourseSummary | null }) => a.course?.name || a.course?.title || 'Unknown Course';

/**
 * Runs `load` now and every `ms` milliseconds while the tab is visible; when the tab comes back it reloads
 * at once. Returns {data, error, loading, reload}. `enabled` false keeps it idle (e.g. before the user is known).
 */
export function usePolling<T>(load: () => Promise<T>, ms: number, enabled = true) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const loadRef = useRef(load);
  loadRef.current = load;
  const reload = useCallback(async () => {
    try { setData(await loadRef.current()); setError(null); }
    catch (e) { setError(e instanceof Error ? e.message : String(e)); }
    finally { setLoading(false); }
  }, []);
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => { stop(); if (!document.hidden) timer = setInterval(() => { void reload(); }, ms); };
    const stop = () => { if (timer) clearInterval(timer); timer = undefined; };
    const onVisibility = () => { if (document.hidden) stop(); else { void reload(); start(); } };
    void reload();
    start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => { stop(); document.removeEventListener('visibilitychange', onVisibility); };
  }, [enabled, ms, reload]);
  return { data, error, loading, reload, setData };
}

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
