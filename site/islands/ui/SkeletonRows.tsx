/**
 * The one loading placeholder of lists and panels (issue #15 point 5), used by the admin and external islands:
 * `rows` grey bars announced once as `label` (role status, busy).
 */
import type { ReactElement } from 'react';
export function SkeletonRows({ rows = 5, label = 'Loading' }: { rows?: number; label?: string }): ReactElement {
  return (
    <div role="status" aria-busy="true" className="space-y-2">
      <span className="sr-only">{label}…</span>
      {Array.from({ length: rows }, (_, i) => <div key={i} aria-hidden="true" className="skeleton h-10 w-full" />)}
    </div>
  );
}
