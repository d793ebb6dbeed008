/**
 * /profile (issue #4): see and edit one's own details, change the password (needs the current one), log out of
 * every device, "Download my data" (JSON) and "Delete my account" (POPIA). Logged-out visitors go to
 * /login?redirect=/profile. Destructive actions ask for confirmation first. The date of birth follows the
 * registration wizard's rule: read-only from the SA ID for za (or no nationality), typed YYYY-MM-DD with a
 * "Passport or ID number" for any other nationality (typesDateOfBirth; checked by ProfileUpdateSchema). A read-only
 * date the ID number does not give (a passport number, or none) is the saved one, and its hint says so.
 * A save sends the profile's `updatedAt` it was loaded with as `expectedUpdatedAt`. When the details changed since
 * (another tab saved, or an application submitted meanwhile filled empty ones), the 409 leaves the form as typed and
 * shows the message with Reload (admin/EditConflict.tsx, as the course and announcement forms do; issue #16, no lost
 * work): Reload takes the newer saved values and keeps the fields the person changed, listing those whose saved
 * value differs with "Use saved version". A 409 whose saved details are still the ones the form started from (the
 * account changed in something else: the password changed on this page) is saved again at once at the new version.
 * The announcement e-mail choice is sent only when changed here, so an
 * unsubscribe link followed meanwhile is not undone by a save of other details.
 */
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import type { z } from 'zod';
import { ChangePasswordSchema, ProfileUpdateSchema, birthDateFromIdNumber, typesDateOfBirth, type Profile } from '#contracts/auth.ts';
import { COUNTRY_OPTIONS } from '#contracts/application-steps.ts';
import { EditConflict, KeptChanges, reloadKeepingChanges, savedText, useKeptChanges, withKeptNote } from '../admin/EditConflict.tsx';
import { api, ApiError, TOKEN_KEY } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format.ts';
import { forgetThisDevice, setUser } from '../../stores/session.ts';
import { flashToast, toast } from '../../stores/toasts.ts';
import { Field, fieldProps } from '../ui/Field.tsx';
import { applyServerErrors, errorText } from '../auth/form-helpers.ts';
import { redirectToLogin } from '../auth/redirect-to-login.ts';
import { allowLeaving, useLeaveWarning } from '../ui/use-leave-warning.ts';
import { saveApi } from '../ui/save-api.ts';
import { useBackCloses } from '../ui/use-back-closes.ts';
import { useSettleGuard } from '../ui/confirm-guard.ts';
import { resetKeepingEdits, sentValues } from '../ui/keep-edits.ts';
import { BusyButton, unlessBusy } from '../ui/BusyButton.tsx';
import { useIdleWatch } from '../ui/use-session.ts';
import SmsCard from './SmsCard.tsx';
import { NscResultsCard } from './NscResultsCard.tsx';

type Details = z.input<typeof ProfileUpdateSchema>;
type Passwords = z.input<typeof ChangePasswordSchema>;
const DETAIL_FIELDS = ['firstName', 'lastName', 'phone', 'nationality', 'idNumber', 'dateOfBirth', 'addressLine1', 'addressLine2', 'city', 'state', 'postalCode', 'country', 'emergencyContactName', 'emergencyContactPhone', 'emergencyContactRelation'] as const;

/** The form's labels, for the fields Reload kept (KeptChanges). */
const LABELS: Record<(typeof DETAIL_FIELDS)[number] | 'announcementEmails', string> = {
  firstName: 'First name', lastName: 'Last name', phone: 'Phone', nationality: 'Nationality', idNumber: 'ID number', dateOfBirth: 'Date of birth',
  addressLine1: 'Address line 1', addressLine2: 'Address line 2', city: 'City', state: 'State/Province', postalCode: 'Postal code', country: 'Country',
  emergencyContactName: 'Emergency contact name', emergencyContactPhone: 'Emergency contact phone', emergencyContactRelation: 'Emergency contact relationship',
  announcementEmails: 'E-mail me college announcements',
};
/** A saved value as the kept-changes box shows it: a country by its name. */
const savedValue = (name: string, v: unknown) => (name === 'nationality' || name === 'country')
  ? (COUNTRY_OPTIONS.find((o) => o.value === v)?.label ?? savedText(v)) : savedText(v);
/** The profile a 409 answer carries (as it is now), when the answer is a stale-save conflict. */
const conflictProfile = (e: unknown): Profile | null =>
  e instanceof ApiError && e.status === 409 ? ((e.body as { user?: Profile } | null)?.user ?? null) : null;

/** Whether two form-shaped profiles hold the same details and announcement choice (blanks as ''). */
function sameDetails(a: Details, b: Details): boolean {
  const text = (d: Details) => JSON.stringify([...DETAIL_FIELDS, 'announcementEmails'].map((k) => (d as Record<string, unknown>)[k] ?? ''));
  return text(a) === text(b);
}

function toDetails(p: Profile): Details {
  const out: Record<string, string> = {};
  for (const k of DETAIL_FIELDS) out[k] = (p as unknown as Record<string, string | null>)[k] ?? '';
  return { ...out, announcementEmails: p.announcementEmails } as unknown as Details;
}

/** After the server ended every session or erased the account: nothing of this user stays on the device. */
function leave(path: string) {
  void forgetThisDevice().finally(() => {
    allowLeaving();
    window.location.assign(path);
  });
}

export default function ProfilePage() {
  const [profile, setProfile] = useState<Profile | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  const load = () => {
    setLoadError(null);
    api<{ user: Profile }>('/api/profile')
      .then((r) => setProfile(r.user))
      .catch((e) => {
        if (e instanceof ApiError && e.status === 401) return redirectToLogin();
        setLoadError(errorText(e, 'Could not load your profile.'));
      });
  };
  useEffect(load, []);
  useIdleWatch(profile?.role === 'student');

  if (loadError) {
    return (
      <div role="alert" className="card p-6">
        <p className="font-semibold">Your profile could not be loaded.</p>
        <p className="mt-1 text-sm muted">{loadError}</p>
        <button type="button" className="btn-secondary mt-4" onClick={load}>Try again</button>
      </div>
    );
  }
  if (!profile) {
    return <div className="space-y-4" aria-busy="true" aria-label="Loading your profile"><div className="skeleton h-8 w-1/3" /><div className="skeleton h-64" /><div className="skeleton h-40" /></div>;
  }
  return (
    <div className="space-y-8">
      <header>
        <h1 className="text-3xl font-bold">My Profile</h1>
        <p className="mt-1 muted [overflow-wrap:anywhere]">{profile.firstName} {profile.lastName} · {profile.email} · {profile.role === 'admin' ? 'Admin' : 'Student'} Account</p>
      </header>
      <DetailsForm profile={profile} onSaved={setProfile} />
      <SmsCard phone={profile.phone} />
      {profile.role === 'student' && <NscResultsCard />}
      <PasswordForm />
      <SessionsCard />
      <DataCard profile={profile} />
    </div>
  );
}

function DetailsForm({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const form = useForm<Details>({
    resolver: zodResolver(ProfileUpdateSchema) as never, defaultValues: toDetails(profile),
  });
  const { register, handleSubmit, setError, watch, getValues, setValue, reset, formState: { errors, isSubmitting, isDirty, dirtyFields } } = form;
  useLeaveWarning(isDirty);
  // The version the form shows: sent back as expectedUpdatedAt, replaced by each save and by Reload.
  const [version, setVersion] = useState(profile.updatedAt);
  const [conflict, setConflict] = useState<string | null>(null);
  const [reloading, setReloading] = useState(false);
  const keptBox = useKeptChanges(setValue);
  const e = (k: (typeof DETAIL_FIELDS)[number]) => errors[k]?.message as string | undefined;
  // A South African's date of birth is shown from the ID number; another nationality's is the typed field.
  const typedDob = typesDateOfBirth(watch('nationality'));
  // The server keeps the stored date when the ID number gives none (none typed, or a passport number): show that one,
  // and do not say it came from the ID number (an application submit fills it; issue #16).
  const idDob = birthDateFromIdNumber(watch('idNumber') ?? '');
  const dob = idDob || (watch('dateOfBirth') ?? '');
  const dobHint = idDob || !dob ? 'Filled in from your ID number.'
    : watch('nationality') === 'za' ? 'Saved with your details. Enter your ID number to change it.'
      : 'Saved with your details. To change it, choose your nationality.';
  // A failure the fields cannot show (no connection, a server error) stays beside Save until the next try: the toast
  // goes after 5 s, before a screen-magnifier or a slow reader has found it (WCAG 3.3.1).
  const [failure, setFailure] = useState<string | null>(null);
  /** The saved details this form was loaded from (or last saved): what "changed since" is measured against. */
  const loadedDetails = () => sentValues((form.formState.defaultValues ?? {}) as Details);
  const onSubmit = async (v: Details) => {
    const sent = sentValues(getValues());
    setFailure(null);
    setConflict(null);
    const { announcementEmails, ...details } = v;
    const base = loadedDetails();
    const send = (expectedUpdatedAt: string) => saveApi<{ user: Profile }>('/api/profile', { method: 'PUT',
      json: { ...details, ...(dirtyFields.announcementEmails ? { announcementEmails } : {}), expectedUpdatedAt } });
    try {
      let r: { user: Profile };
      try {
        r = await send(version);
      } catch (err) {
        // The account changed since, but not in anything this form shows (a password change here, the e-mail verified
        // in another tab): the details saved are still the ones the form started from, so saving over them loses nothing.
        const now = conflictProfile(err);
        if (!now || !sameDetails(toDetails(now), base)) throw err;
        r = await send(now.updatedAt);
      }
      onSaved(r.user);
      setVersion(r.user.updatedAt);
      keptBox.clear();
      // What was typed while saving stays, and stays unsaved (ui/keep-edits.ts).
      resetKeepingEdits(form, toDetails(r.user), sent);
      setUser(r.user);
      toast({ title: 'Profile updated', description: 'Your details have been saved.', variant: 'success' });
    } catch (err) {
      if (conflictProfile(err)) { setConflict((err as ApiError).userMessage); return; }
      if (!applyServerErrors(setError, err, DETAIL_FIELDS)) setFailure(`Your changes were not saved. ${errorText(err, 'An error occurred')}`);
      toast({ title: 'Update failed', description: errorText(err, 'An error occurred'), variant: 'destructive' });
    }
  };
  /** Reload after a 409: the saved profile now, keeping every field changed here (EditConflict.tsx). */
  const reload = async () => {
    setReloading(true);
    try {
      const latest = (await api<{ user: Profile }>('/api/profile')).user;
      const stored = toDetails(latest);
      // A kept field is listed only when the newer save changed it too.
      const base = loadedDetails() as Record<string, unknown>;
      const differs = reloadKeepingChanges({ getValues, reset, setValue }, stored, dirtyFields)
        .filter((k) => JSON.stringify((stored as Record<string, unknown>)[k as string] ?? '') !== JSON.stringify(base[k as string] ?? ''));
      keptBox.show(stored, differs.map((k) => ({ name: String(k), label: LABELS[k as keyof typeof LABELS] ?? String(k), saved: savedValue(String(k), (stored as Record<string, unknown>)[k as string]) })));
      setVersion(latest.updatedAt);
      setConflict(null);
      onSaved(latest);
      setUser(latest);
    } catch (err) {
      toast({ title: 'Failed to reload your profile', description: errorText(err, 'An error occurred'), variant: 'destructive' });
    } finally { setReloading(false); }
  };
  const kept = (k: string, props: { 'aria-describedby'?: string }) => withKeptNote(props, keptBox.kept, k, 'pf');
  const input = (k: (typeof DETAIL_FIELDS)[number], label: string, props: Record<string, unknown> = {}) => (
    <Field id={`pf-${k}`} label={label} error={e(k)}>
      <input {...kept(k, fieldProps(`pf-${k}`, e(k)))} {...register(k)} className="input" {...props} />
    </Field>
  );
  const country = (k: 'nationality' | 'country', label: string) => (
    <Field id={`pf-${k}`} label={label} error={e(k)}>
      <select {...kept(k, fieldProps(`pf-${k}`, e(k)))} {...register(k)} className="input" autoComplete={k === 'country' ? 'country' : undefined}>
        <option value="">Not set</option>
        {COUNTRY_OPTIONS.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
    </Field>
  );
  return (
    <section aria-labelledby="details-title" className="card p-6">
      <h2 id="details-title" className="text-xl font-semibold">Your details</h2>
      <form noValidate onSubmit={unlessBusy(isSubmitting, handleSubmit(onSubmit))} className="mt-4 space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          {input('firstName', 'First name', { autoComplete: 'given-name' })}
          {input('lastName', 'Last name', { autoComplete: 'family-name' })}
          <Field id="pf-email" label="Email" hint="To change your e-mail address, contact the admissions office.">
            <input id="pf-email" value={profile.email} readOnly aria-describedby="pf-email-hint" className="input bg-slate-100 dark:bg-slate-800" />
          </Field>
          {input('phone', 'Phone', { type: 'tel', autoComplete: 'tel' })}
          {country('nationality', 'Nationality')}
          {typedDob
            ? input('idNumber', 'Passport or ID number', { autoComplete: 'off', spellCheck: false })
            : input('idNumber', 'ID number', { inputMode: 'numeric', autoComplete: 'off' })}
          {typedDob ? (
            <Field id="pf-dateOfBirth" label="Date of birth" hint="YYYY-MM-DD" error={e('dateOfBirth')}>
              <input {...fieldProps('pf-dateOfBirth', e('dateOfBirth'))} {...kept('dateOfBirth', { 'aria-describedby': e('dateOfBirth') ? 'pf-dateOfBirth-error' : 'pf-dateOfBirth-hint' })} {...register('dateOfBirth')} className="input" autoComplete="bday" spellCheck={false} maxLength={10} />
            </Field>
          ) : (
            <Field id="pf-dob" label="Date of birth" hint={dobHint}>
              <input id="pf-dob" value={dob} readOnly aria-describedby="pf-dob-hint" className="input bg-slate-100 dark:bg-slate-800" />
            </Field>
          )}
        </div>
        <fieldset className="grid gap-4 sm:grid-cols-2">
          <legend className="mb-2 font-semibold">Address</legend>
          {input('addressLine1', 'Address line 1', { autoComplete: 'address-line1' })}
          {input('addressLine2', 'Address line 2 (optional)', { autoComplete: 'address-line2' })}
          {input('city', 'City', { autoComplete: 'address-level2' })}
          {input('state', 'State/Province', { autoComplete: 'address-level1' })}
          {input('postalCode', 'Postal code', { autoComplete: 'postal-code' })}
          {country('country', 'Country')}
        </fieldset>
        <fieldset className="grid gap-4 sm:grid-cols-3">
          <legend className="mb-2 font-semibold">Emergency contact</legend>
          {input('emergencyContactName', 'Name')}
          {input('emergencyContactPhone', 'Phone', { type: 'tel' })}
          {input('emergencyContactRelation', 'Relationship')}
        </fieldset>
        <fieldset>
          <legend className="mb-2 font-semibold">E-mail</legend>
          <label htmlFor="pf-announcementEmails" className="flex min-h-11 items-center gap-3">
            {/* shrink-0 and min-w-0: at 200 % text on a 360 px phone the words wrap instead of squashing the box. */}
            <input id="pf-announcementEmails" type="checkbox" {...register('announcementEmails')} {...kept('announcementEmails', { 'aria-describedby': 'pf-announcementEmails-hint' })} className="h-5 w-5 shrink-0" />
            <span className="min-w-0">E-mail me college announcements</span>
          </label>
          <p id="pf-announcementEmails-hint" className="text-sm muted">E-mails about your own applications, password and account always come.</p>
        </fieldset>
        {conflict && <EditConflict message={conflict} reloading={reloading} onReload={() => void reload()} />}
        <KeptChanges fields={keptBox.kept} reloaded={keptBox.reloaded} prefix="pf" onUseSaved={keptBox.takeSaved} />
        <div className="flex flex-wrap items-center gap-3">
          <BusyButton type="submit" className="btn-primary" busy={isSubmitting} unavailable={!isDirty || reloading}>{isSubmitting ? 'Saving...' : 'Save changes'}</BusyButton>
          <div role="alert" data-testid="profile-save-error" className="min-w-0 flex-1">{failure && <p className="text-sm font-medium text-red-700 dark:text-red-300">{failure}</p>}</div>
        </div>
      </form>
    </section>
  );
}

function PasswordForm() {
  const { register, handleSubmit, setError, reset, formState: { errors, isSubmitting } } = useForm<Passwords>({
    resolver: zodResolver(ChangePasswordSchema), defaultValues: { currentPassword: '', password: '', confirmPassword: '' },
  });
  const onSubmit = async (v: Passwords) => {
    try {
      const r = await api<{ token?: string }>('/api/profile/password', { method: 'POST', json: v });
      if (r.token) try { localStorage.setItem(TOKEN_KEY, r.token); } catch { /* ignore */ }
      reset();
      toast({ title: 'Password changed', description: 'You have been logged out on your other devices.', variant: 'success' });
    } catch (err) {
      applyServerErrors(setError, err, ['currentPassword', 'password', 'confirmPassword']);
      toast({ title: 'Password not changed', description: errorText(err, 'An error occurred'), variant: 'destructive' });
    }
  };
  return (
    <section aria-labelledby="password-title" className="card p-6">
      <h2 id="password-title" className="text-xl font-semibold">Change password</h2>
      <form noValidate onSubmit={unlessBusy(isSubmitting, handleSubmit(onSubmit))} className="mt-4 grid gap-4 sm:grid-cols-3">
        <Field id="pw-current" label="Current password" error={errors.currentPassword?.message}>
          <input {...fieldProps('pw-current', errors.currentPassword?.message)} {...register('currentPassword')} type="password" autoComplete="current-password" className="input" />
        </Field>
        <Field id="pw-new" label="New password" error={errors.password?.message}>
          <input {...fieldProps('pw-new', errors.password?.message)} {...register('password')} type="password" autoComplete="new-password" className="input" />
        </Field>
        <Field id="pw-confirm" label="Confirm new password" error={errors.confirmPassword?.message}>
          <input {...fieldProps('pw-confirm', errors.confirmPassword?.message)} {...register('confirmPassword')} type="password" autoComplete="new-password" className="input" />
        </Field>
        <div className="sm:col-span-3">
          <BusyButton type="submit" className="btn-primary" busy={isSubmitting}>{isSubmitting ? 'Saving...' : 'Change password'}</BusyButton>
        </div>
      </form>
    </section>
  );
}

function Confirm({ trigger, title, description, action, danger = false, children, onConfirm, busy, returnTo }: {
  trigger: string; title: string; description: string; action: string; danger?: boolean; busy?: boolean;
  children?: React.ReactNode; onConfirm: (e: { preventDefault(): void }) => void;
  /** Where the focus goes on close when the trigger is gone (the Confirm itself removed); Radix's trigger otherwise. */
  returnTo?: () => HTMLElement | null;
}) {
  const [open, setOpen] = useState(false);
  useBackCloses(open, () => { setOpen(false); return true; });
  const { ready } = useSettleGuard(open);
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger asChild><button type="button" className={danger ? 'btn-danger' : 'btn-secondary'}>{trigger}</button></AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <AlertDialog.Content onCloseAutoFocus={(e) => { const to = returnTo?.(); if (to?.isConnected) { e.preventDefault(); to.focus(); } }} className="card fixed left-1/2 top-1/2 z-50 w-[min(92vw,28rem)] -translate-x-1/2 -translate-y-1/2 max-h-[calc(100dvh-1rem)] overflow-y-auto p-6">
          <AlertDialog.Title className="text-lg font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm muted">{description}</AlertDialog.Description>
          {children}
          <div className="mt-6 flex justify-end gap-3">
            <AlertDialog.Cancel asChild><button type="button" className="btn-secondary">Cancel</button></AlertDialog.Cancel>
            <BusyButton className={danger ? 'btn-danger' : 'btn-primary'} onClick={onConfirm} busy={busy} unavailable={!ready}>{busy ? 'Please wait...' : action}</BusyButton>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

function SessionsCard() {
  const [busy, setBusy] = useState(false);
  const everywhere = async () => {
    setBusy(true);
    try {
      await api('/api/profile/logout-everywhere', { method: 'POST' });
      flashToast({ title: 'Logged out everywhere', description: 'Every session of your account has ended.', variant: 'success' });
      leave('/login');
    } catch (err) {
      setBusy(false);
      toast({ title: 'Logout failed', description: errorText(err, 'Unknown error during logout'), variant: 'destructive' });
    }
  };
  return (
    <section aria-labelledby="sessions-title" className="card p-6">
      <h2 id="sessions-title" className="text-xl font-semibold">Devices and sessions</h2>
      <p className="mt-1 text-sm muted">Lost a phone or used a shared computer? End every session of your account, including this one.</p>
      <div className="mt-4">
        <Confirm trigger="Log out everywhere" title="Log out of every device?" description="You will be logged out on every device and browser, including this one." action="Log out everywhere" onConfirm={everywhere} busy={busy} />
      </div>
    </section>
  );
}

function DataCard({ profile }: { profile: Profile }) {
  const [downloading, setDownloading] = useState(false);
  const [password, setPassword] = useState('');
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [requested, setRequested] = useState<string | null>(null);
  const pwRef = useRef<HTMLInputElement>(null);
  const requestedRef = useRef<HTMLParagraphElement>(null);

  const download = async () => {
    setDownloading(true);
    try {
      const headers: Record<string, string> = {};
      try { const t = localStorage.getItem(TOKEN_KEY); if (t) headers.Authorization = `Bearer ${t}`; } catch { /* ignore */ }
      const res = await fetch('/api/profile/export', { credentials: 'include', headers });
      if (!res.ok) throw new ApiError(res.status, await res.text());
      const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? 'my-data.json';
      const url = URL.createObjectURL(await res.blob());
      const a = Object.assign(document.createElement('a'), { href: url, download: name });
      document.body.append(a); a.click(); a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      toast({ title: 'Download failed', description: errorText(err, 'An error occurred'), variant: 'destructive' });
    } finally { setDownloading(false); }
  };

  const remove = async (ev: { preventDefault(): void }) => {
    ev.preventDefault();
    if (!password) { setDeleteError('Please enter your password'); pwRef.current?.focus(); return; }
    setDeleting(true); setDeleteError(null);
    try {
      const r = await api<{ outcome: 'deleted' | 'requested'; requestedAt?: string }>('/api/profile/delete', { method: 'POST', json: { password } });
      if (r.outcome === 'deleted') {
        flashToast({ title: 'Account deleted', description: 'Your account and personal data have been erased.', variant: 'success' });
        leave('/');
        return;
      }
      setRequested(r.requestedAt ?? new Date().toISOString());
      setDeleting(false);
    } catch (err) {
      setDeleting(false);
      setDeleteError(err instanceof ApiError && err.fields.password ? err.fields.password : errorText(err, 'An error occurred'));
      pwRef.current?.focus();
    }
  };

  return (
    <section aria-labelledby="data-title" className="card p-6">
      <h2 id="data-title" className="text-xl font-semibold">Your data</h2>
      <p className="mt-1 text-sm muted">
        You agreed to our <a href="/privacy" className="underline">Privacy Policy</a>
        {profile.privacyNoticeVersion ? ` (the version of ${formatDate(profile.privacyNoticeVersion)})` : ''}{profile.privacyConsentAt ? ` on ${formatDate(profile.privacyConsentAt)}` : ''}.
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <BusyButton className="btn-secondary" onClick={() => void download()} busy={downloading}>{downloading ? 'Preparing...' : 'Download my data'}</BusyButton>
        {!requested && (
          <Confirm trigger="Delete my account" danger title="Delete your account?" action="Delete my account" busy={deleting} onConfirm={remove} returnTo={() => requestedRef.current}
            description="If you have no applications, your account and personal data are erased now and cannot be recovered. If you have applications, we record a deletion request for the admissions office to complete. The college keeps the record of any application (course, status and dates) and its payment, without your name or details.">
            <div className="mt-4">
              <Field id="delete-password" label="Your password" error={deleteError ?? undefined}>
                <input ref={pwRef} {...fieldProps('delete-password', deleteError ?? undefined)} type="password" autoComplete="current-password" className="input" value={password} onChange={(e) => setPassword(e.target.value)} />
              </Field>
            </div>
          </Confirm>
        )}
      </div>
      {requested && (
        <p role="status" ref={requestedRef} tabIndex={-1} className="mt-4 rounded-md border border-amber-600 bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-50">
          Your deletion request was recorded on {formatDate(requested)}. Because you have applications on record, an administrator will review and complete it.
        </p>
      )}
    </section>
  );
}
