/**
 * Pieces shared by the applicant islands (wizard, My Applications, application detail, student dashboard):
 * polling that pauses while the tab is hidden (spec §9: notifications 15 s, applications 30 s),
 * status badge colours and progress per spec §4, and the login guard.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { STATUS_COLOUR, progressFor, statusLabel } from '#contracts/statuses.ts';
import { flashToast } from '../../stores/toasts.ts';

import type { CourseSummary } from '#contracts/application-views.ts';

const BADGE: Record<string, string> = {
  yellow: 'bg-yellow-100 text-yellow-900 ring-yellow-300 dark:bg-yellow-900/40 dark:text-yellow-100',
  blue: 'bg-blue-100 text-blue-900 ring-blue-300 dark:bg-blue-900/40 dark:text-blue-100',
  orange: 'bg-orange-100 text-orange-900 ring-orange-300 dark:bg-orange-900/40 dark:text-orange-100',
  green: 'bg-green-100 text-green-900 ring-green-300 dark:bg-green-900/40 dark:text-green-100',
  red: 'bg-red-100 text-red-900 ring-red-300 dark:bg-red-900/40 dark:text-red-100',
  purple: 'bg-purple-100 text-purple-900 ring-purple-300 dark:bg-purple-900/40 dark:text-purple-100',
  grey: 'bg-slate-100 text-slate-900 ring-slate-300 dark:bg-slate-800 dark:text-slate-100',
};

/** Status badge in the colour of spec §4 (pending yellow, under_review blue, …). */
export function StatusBadge({ status }: { status: string }) {
  const colour = (STATUS_COLOUR as Record<string, string>)[status] ?? 'grey';
  return <span data-status={status} data-colour={colour} className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${BADGE[colour]}`}>{statusLabel(status)}</span>;
}

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
export const appRef = (id: number) => `APP-${id}`;

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

/** '1.2 MB' style size for bytes. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Long en-US date with time, for timelines and notifications. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString('en-US', { year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}
