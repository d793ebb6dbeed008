/** Small shared pieces of the admin islands: status badge, skeleton rows, error/empty states, access gate. */
import { formatMoney } from '../../lib/format.ts';
import type { ReactNode } from 'react';
import { STATUS_COLOUR, statusLabel, type ApplicationStatus } from '#contracts/statuses.ts';

const BADGE: Record<string, string> = {
  yellow: 'bg-yellow-100 text-yellow-900 dark:bg-yellow-900 dark:text-yellow-50',
  blue: 'bg-blue-100 text-blue-900 dark:bg-blue-900 dark:text-blue-50',
  orange: 'bg-orange-100 text-orange-900 dark:bg-orange-900 dark:text-orange-50',
  green: 'bg-green-100 text-green-900 dark:bg-green-900 dark:text-green-50',
  red: 'bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-50',
  purple: 'bg-purple-100 text-purple-900 dark:bg-purple-900 dark:text-purple-50',
};

export function StatusBadge({ status }: { status: string }) {
  const colour = STATUS_COLOUR[status as ApplicationStatus] ?? 'blue';
  return <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${BADGE[colour]}`}>{statusLabel(status)}</span>;
}

export const appRef = (id: number) => `APP-${id}`;

/** '2026-11-21T…' → '21 Nov 2026, 09:30' (en-ZA, the admin's working locale). */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleString('en-ZA', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
}

/** The application fee as the spec shows it ('$50.00'); one formatter for all money (site/lib/format.ts). */
export const money = (v: string | number) => formatMoney(v, 'USD');

export function SkeletonRows({ rows = 5, label = 'Loading' }: { rows?: number; label?: string }) {
  return (
    <div role="status" aria-label={label} className="space-y-2">
      {Array.from({ length: rows }, (_, i) => <div key={i} className="skeleton h-10 w-full" />)}
    </div>
  );
}

export function ErrorState({ title, message, onRetry }: { title?: string; message: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="card border-red-300 p-4 text-red-800 dark:border-red-700 dark:text-red-200">
      {title && <p className="font-semibold">{title}</p>}
      <p>{message}</p>
      {onRetry && <button type="button" className="btn-secondary mt-3" onClick={onRetry}>Try again</button>}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="card p-6 text-center muted">{children}</p>;
}

/** Shown by admin islands while the session check runs or when access is refused. */
export function AccessGate({ access, children }: { access: string; children: ReactNode }) {
  if (access === 'admin') return <>{children}</>;
  if (access === 'loading') return <SkeletonRows rows={4} label="Checking your access" />;
  return <p className="muted">Redirecting…</p>;
}
