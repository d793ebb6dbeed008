/**
 * Enrolling students in the external system from the UI (issue #14 point 10), so Add payment has students on a
 * fresh install: "Enrol an accepted applicant" (searched with GET /api/external/enrolable-applications?q=APP-id, name
 * or e-mail, not yet enrolled; POST /api/external/students/from-application/{applicationId}
 * {branchId}) and "Enrol a walk-in student" (POST /api/external/students {name, email, phone, address,
 * branchId, course}). Field messages come from the API's 400 (ExternalStudentInputSchema wording).
 * `onEnrolled(student)` runs after each success.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { EnrolableApplicationsPage, ExternalBranch, ExternalStudent } from '#contracts/external.ts';
import { api, ApiError } from '../../lib/api-client.ts';
import { toast } from '../../stores/toasts.ts';
import { Field, fieldProps } from '../ui/Field.tsx';
import Panel, { usePanelUnsaved } from '../admin/Panel.tsx';
import { goToExternalLogin, isExternalLoginRequired } from './external-client.ts';
import { BusyButton, unlessBusy } from '../ui/BusyButton.tsx';

type Mode = 'applicant' | 'walk-in';
const WALK_IN_ORDER = ['name', 'email', 'phone', 'address', 'branchId', 'course'] as const;

export function EnrolStudentButtons({ onEnrolled }: { onEnrolled: (s: ExternalStudent) => void }) {
  const [mode, setMode] = useState<Mode | null>(null);
  return (
    <div className="flex flex-wrap gap-2">
      <button type="button" className="btn-secondary" onClick={() => setMode('applicant')}>Enrol accepted applicant</button>
      <button type="button" className="btn-secondary" onClick={() => setMode('walk-in')}>Enrol walk-in student</button>
      <Panel open={mode != null} onOpenChange={(o) => { if (!o) setMode(null); }}
        title={mode === 'applicant' ? 'Enrol an accepted applicant' : 'Enrol a walk-in student'}
        description={mode === 'applicant' ? 'The applicant becomes a student of the chosen campus in the external system.' : 'For someone who enrols at a campus without applying online.'}>
        {mode && <EnrolForm mode={mode} onDone={(s) => { setMode(null); onEnrolled(s); }} />}
      </Panel>
    </div>
  );
}

function EnrolForm({ mode, onDone }: { mode: Mode; onDone: (s: ExternalStudent) => void }) {
  const [branches, setBranches] = useState<ExternalBranch[] | null>(null);
  const [accepted, setAccepted] = useState<EnrolableApplicationsPage | null>(null);
  const [search, setSearch] = useState('');
  const [values, setValues] = useState<Record<string, string>>({ applicationId: '', branchId: '', name: '', email: '', phone: '', address: '', course: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    api<{ branches: ExternalBranch[] }>('/api/external/branches').then((r) => {
      // No campus is chosen for the officer: a preselected first campus (Tshikombani) was easy to miss, and a student
      // enrolled at the wrong campus (admin-day audit). "Please select a campus" asks for it.
      setBranches(r.branches);
    }).catch((e) => { if (isExternalLoginRequired(e)) goToExternalLogin(); else setLoadError('Failed to load branch data. Please try again later.'); });
  }, [mode]);

  // Accepted applications not enrolled yet, searched by the API (APP-id, name or e-mail) as the admin types (300 ms).
  useEffect(() => {
    if (mode !== 'applicant') return;
    const ctrl = new AbortController();
    const h = setTimeout(() => {
      api<EnrolableApplicationsPage>(`/api/external/enrolable-applications?${new URLSearchParams({ q: search.trim() })}`, { signal: ctrl.signal })
        .then((r) => {
          setAccepted(r);
          setValues((v) => (v.applicationId && !r.applications.some((a) => String(a.id) === v.applicationId) ? { ...v, applicationId: '' } : v));
        })
        .catch((e) => {
          if (ctrl.signal.aborted) return;
          if (isExternalLoginRequired(e)) goToExternalLogin(); else setLoadError('Could not load accepted applications. Please try again.');
        });
    }, search ? 300 : 0);
    return () => { clearTimeout(h); ctrl.abort(); };
  }, [mode, search]);

  usePanelUnsaved(mode === 'walk-in' && WALK_IN_ORDER.some((k) => k !== 'branchId' && values[k].trim() !== ''));
  const set = (k: string) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [k]: e.target.value }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const local: Record<string, string> = {};
    if (mode === 'applicant' && !values.applicationId) local.applicationId = 'Please select an accepted applicant';
    if (mode === 'walk-in') {
      if (values.name.trim().length < 2) local.name = 'Name must be at least 2 characters';
      if (!/^\S+@\S+\.\S+$/.test(values.email.trim())) local.email = 'Please enter a valid email address';
      if (!values.course.trim()) local.course = 'Course is required';
    }
    if (!values.branchId) local.branchId = 'Please select a campus';
    setErrors(local);
    const first = Object.keys(local)[0];
    if (first) { document.getElementById(`enrol-${first}`)?.focus(); return; }
    setBusy(true);
    try {
      const r = mode === 'applicant'
        ? await api<{ student: ExternalStudent }>(`/api/external/students/from-application/${values.applicationId}`, { method: 'POST', json: { branchId: values.branchId } })
        : await api<{ student: ExternalStudent }>('/api/external/students', { method: 'POST', json: { name: values.name, email: values.email, phone: values.phone, address: values.address, branchId: values.branchId, course: values.course } });
      toast({ title: 'Student enrolled', description: `${r.student.name} is enrolled at ${r.student.campus}.`, variant: 'success' });
      onDone(r.student);
    } catch (err) {
      if (isExternalLoginRequired(err)) { goToExternalLogin(); return; }
      const api = err instanceof ApiError ? err : null;
      const fields = api?.fields ?? {};
      setErrors(fields);
      const hit = [...WALK_IN_ORDER, 'applicationId'].find((k) => fields[k]);
      if (hit) document.getElementById(`enrol-${hit}`)?.focus();
      toast({ title: 'Enrolment failed', description: api?.userMessage ?? 'Could not reach the server. Please check your connection and try again.', variant: 'destructive' });
    } finally { setBusy(false); }
  };

  if (loadError) return <p role="alert" className="field-error">{loadError}</p>;
  const branchField = (
    <Field id="enrol-branchId" label="Campus" error={errors.branchId}>
      <select className="input" {...fieldProps('enrol-branchId', errors.branchId)} value={values.branchId} onChange={set('branchId')} disabled={!branches}>
        {!branches && <option value="">Loading campuses…</option>}
        {branches && <option value="">Choose a campus</option>}
        {branches?.map((b) => <option key={b.id} value={String(b.id)}>{b.name}</option>)}
      </select>
    </Field>
  );
  const text = (k: string, label: string, extra: Record<string, unknown> = {}) => (
    <Field id={`enrol-${k}`} label={label} error={errors[k]}>
      <input className="input" {...fieldProps(`enrol-${k}`, errors[k])} value={values[k]} onChange={set(k)} {...extra} />
    </Field>
  );
  return (
    <form noValidate onSubmit={unlessBusy(busy, submit)} className="space-y-4" aria-busy={busy}>
      {mode === 'applicant' ? (
        <>
          <div role="search">
            <label htmlFor="enrol-search" className="label">Find by APP-id, name or e-mail</label>
            <input id="enrol-search" type="search" className="input" autoComplete="off" maxLength={100} placeholder="e.g. APP-1024 or Naledi"
              value={search} onChange={(e) => setSearch(e.target.value)} aria-describedby="enrol-search-count" />
            <p id="enrol-search-count" className="mt-1 text-xs muted" aria-live="polite">
              {accepted && (accepted.total > accepted.applications.length
                ? `Showing the newest ${accepted.applications.length} of ${accepted.total.toLocaleString('en-US')} matches; type to narrow them down.`
                : `${accepted.total} accepted applicant${accepted.total === 1 ? '' : 's'} not enrolled yet${search.trim() ? ' match' : ''}.`)}
            </p>
          </div>
          <Field id="enrol-applicationId" label="Accepted applicant" error={errors.applicationId}>
            <select className="input" {...fieldProps('enrol-applicationId', errors.applicationId)} value={values.applicationId} onChange={set('applicationId')} disabled={!accepted}>
              <option value="">{!accepted ? 'Loading accepted applications…' : accepted.applications.length ? 'Select an accepted applicant' : search.trim() ? 'No accepted applicant matches' : 'No accepted applications to enrol'}</option>
              {accepted?.applications.map((a) => <option key={a.id} value={String(a.id)}>{a.name} — {a.course ?? 'Course'} (APP-{a.id})</option>)}
            </select>
          </Field>
        </>
      ) : (
        <>
          {text('name', 'Full name', { autoComplete: 'name', maxLength: 160 })}
          {text('email', 'Email', { type: 'email', autoComplete: 'email', maxLength: 254 })}
          {text('phone', 'Phone (optional)', { type: 'tel', autoComplete: 'tel', maxLength: 30 })}
          {text('address', 'Address (optional)', { autoComplete: 'street-address', maxLength: 300 })}
          {text('course', 'Course', { maxLength: 200 })}
        </>
      )}
      {branchField}
      <BusyButton type="submit" className="btn-primary w-full" busy={busy}>{busy ? 'Enrolling…' : 'Enrol student'}</BusyButton>
    </form>
  );
}
