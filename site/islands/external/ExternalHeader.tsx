/**
 * Header of the external pages (rendered inside each external island, not an island of its own):
 * links between Branches, Students and Payments, who the admin is connected as, and Disconnect. Both rows wrap, so
 * with 200 % text on a 360 px phone nothing reaches past the screen's edge.
 */
import { useState } from 'react';
import { api } from '../../lib/api-client.ts';
import { EXTERNAL_LOGIN_PATH } from './external-client.ts';

const LINKS = [
  { href: '/admin/branches', label: 'Branches' },
  { href: '/admin/external-students', label: 'Students' },
  { href: '/admin/external-payments', label: 'Payments' },
] as const;

/** Links between the external pages (`current` marked), who is connected, and Disconnect. */
export function ExternalHeader({ current, user }: { current: string; user: { name: string; email: string } | null }) {
  const [busy, setBusy] = useState(false);
  const disconnect = async () => {
    setBusy(true);
    try { await api('/api/external/logout', { method: 'POST' }); } catch { /* the session is gone either way */ }
    window.location.assign(EXTERNAL_LOGIN_PATH);
  };
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 pb-3 dark:border-slate-700">
      <nav aria-label="External system">
        <ul className="flex flex-wrap gap-1">
          {LINKS.map((l) => (
            <li key={l.href}>
              <a href={l.href} aria-current={l.href === current ? 'page' : undefined}
                className={`rounded-md px-3 py-2 text-sm font-medium ${l.href === current ? 'bg-brand-700 text-white' : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800'}`}>
                {l.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {user && (
        // flex-wrap: with 200 % text on a phone Disconnect goes below "Connected as …" (the row was 433 px wide at 360 px).
        <div className="flex min-w-0 flex-wrap items-center gap-3 text-sm">
          <span className="muted" data-testid="external-user">Connected as <strong className="text-slate-900 dark:text-slate-100">{user.name}</strong></span>
          <button type="button" className="btn-secondary" onClick={disconnect} disabled={busy}>{busy ? 'Disconnecting...' : 'Disconnect'}</button>
        </div>
      )}
    </div>
  );
}
