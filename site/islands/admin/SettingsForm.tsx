/** /admin/settings (issue #6): application fee, office e-mail, accreditation number, portal access URL. */
import { lazy, Suspense, useEffect, useState } from 'react';
import type { SettingsInput } from '#contracts/settings.ts';
import { api } from '../../lib/api-client.ts';
import { useAdminAccess } from './use-admin.ts';
import { AccessGate } from './admin-ui.tsx';
import { ErrorState } from '../ui/ErrorState.tsx';
import { SkeletonRows } from '../ui/SkeletonRows.tsx';

const Form = lazy(() => import('./SettingsFields.tsx'));

/** Site settings for admins (page /admin/settings and the dashboard tab; `heading` false inside the tab). */
export default function SettingsForm({ heading = true }: { heading?: boolean }) {
  const access = useAdminAccess();
  return <AccessGate access={access}><Inner heading={heading} /></AccessGate>;
}

function Inner({ heading }: { heading: boolean }) {
  const [loaded, setLoaded] = useState<SettingsInput | null>(null);
  const [error, setError] = useState(false);
  useEffect(() => { api<{ settings: SettingsInput }>('/api/admin/settings').then((r) => setLoaded(r.settings)).catch(() => setError(true)); }, []);
  return (
    <section>
      {heading ? <h1 className="mb-4 text-2xl font-bold">Settings</h1> : <h2 className="mb-4 text-xl font-bold">Settings</h2>}
      {error ? <ErrorState message="Could not load the settings." /> : !loaded ? <SkeletonRows rows={4} label="Loading settings" /> : <Suspense fallback={<SkeletonRows rows={4} label="Loading settings" />}><Form initial={loaded} /></Suspense>}
    </section>
  );
}

