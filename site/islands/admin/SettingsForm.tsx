/**
 * /admin/settings (issue #6): application fee, office e-mail, accreditation number, portal access URL.
 * The form's code (SettingsFields.tsx, with react-hook-form and the zod contract) and the settings themselves are
 * fetched together, as soon as this island mounts (the page or the dashboard's Settings tab opening): the form's
 * chunk used to be asked for only after the settings had arrived, one wait after the other (phone audit, 4× CPU:
 * 2.9 s to the first usable field). Either failing shows the ErrorState with 'Try again', which retries both.
 */
import { useEffect, useState } from 'react';
import type { SettingsInput } from '#contracts/settings.ts';
import { api } from '../../lib/api-client.ts';
import { useAdminAccess } from './use-admin.ts';
import { AccessGate } from './admin-ui.tsx';
import { ErrorState } from '../ui/ErrorState.tsx';
import { SkeletonRows } from '../ui/SkeletonRows.tsx';
import type FormComponent from './SettingsFields.tsx';

type FormModule = { default: typeof FormComponent };
let fields: Promise<FormModule> | null = null;
/** The form's module, imported once; a failed import is forgotten, so 'Try again' asks for it again. */
function loadFields(): Promise<FormModule> {
  fields ??= import('./SettingsFields.tsx').catch((e: unknown) => { fields = null; throw e; });
  return fields;
}

/** Site settings for admins (page /admin/settings and the dashboard tab; `heading` false inside the tab). */
export default function SettingsForm({ heading = true }: { heading?: boolean }) {
  const access = useAdminAccess();
  return <AccessGate access={access}><Inner heading={heading} /></AccessGate>;
}

function Inner({ heading }: { heading: boolean }) {
  const [loaded, setLoaded] = useState<{ settings: SettingsInput; Form: typeof FormComponent } | null>(null);
  const [error, setError] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    // Both at once: the settings read and the form's code.
    Promise.all([api<{ settings: SettingsInput }>('/api/admin/settings'), loadFields()])
      .then(([r, m]) => { if (live) setLoaded({ settings: r.settings, Form: m.default }); })
      .catch(() => { if (live) setError(true); });
    return () => { live = false; };
  }, [attempt]);
  const retry = () => { setError(false); setLoaded(null); setAttempt((n) => n + 1); };
  return (
    <section>
      {heading ? <h1 className="mb-4 text-2xl font-bold">Settings</h1> : <h2 className="mb-4 text-xl font-bold">Settings</h2>}
      {error ? <ErrorState message="Could not load the settings." onRetry={retry} />
        : !loaded ? <SkeletonRows rows={4} label="Loading settings" />
        : <loaded.Form initial={loaded.settings} />}
    </section>
  );
}
