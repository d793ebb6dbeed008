/**
 * Small pieces only the admin islands use: the empty-list note and the access gate. The status badge,
 * skeleton rows and error box live in islands/ui/, every formatter in lib/format.ts (issue #15 point 5).
 */
import type { ReactElement, ReactNode } from 'react';
import { SkeletonRows } from '../ui/SkeletonRows.tsx';

/** A centred muted note for an empty list ('No courses found'). */
export function Empty({ children }: { children: ReactNode }): ReactElement {
  return <p className="card p-6 text-center muted">{children}</p>;
}

/** Shown by admin islands while the session check runs or when access is refused. */
export function AccessGate({ access, children }: { access: string; children: ReactNode }): ReactElement {
  if (access === 'admin') return <>{children}</>;
  if (access === 'loading') return <SkeletonRows rows={4} label="Checking your access" />;
  return <p className="muted">Redirecting…</p>;
}
