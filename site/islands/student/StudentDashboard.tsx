/**
 * /dashboard/student (spec §2 Student dashboard): tabs Dashboard, Applications, Documents, Payments,
 * Notifications, Profile (initial 'dashboard'); spinner while loading; progress bar with the milestones
 * Submitted, Payment, Documents, Review, Decision; the 3 latest notifications; mark read one/all; the unread count
 * over all notifications (the server's, not the loaded page's) and "Show older notifications"; deadlines from
 * the course start date. Non-students and logged-out visitors → /login. Polls notifications every 15 s and
 * applications every 30 s while the tab is visible (spec §9, student-stores.ts). Offline it shows the last-known
 * applications and notifications of this user, marked with their date (issue #16 point 4).
 */
import { useEffect, useState } from 'react';
import * as Tabs from '@radix-ui/react-tabs';
import { useStore } from '@nanostores/react';
import { appRef, countryName, formatBytes, formatDate, formatDateTime, formatMoney } from '../../lib/format.ts';
import { statusLabel } from '#contracts/statuses.ts';
import { DOCUMENT_SLOTS } from '#contracts/application-steps.ts';
import { api } from '../../lib/api-client.ts';
import { toast } from '../../stores/toasts.ts';
import { useSession } from '../ui/use-session.ts';
import { ApplicationAlerts } from './ApplicationAlerts.tsx';
import { VerifyEmailBanner } from './VerifyEmailBanner.tsx';
import { deadlinesFor, daysLeftText } from './deadlines.ts';
import { MILESTONES, milestonesReached } from './milestones.ts';
import { applicationProgress, courseName, ProgressBar } from './shared.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { $dashboardApplications, $notifications, startStudentReads } from './student-stores.ts';
import { StatusBadge } from '../ui/StatusBadge.tsx';
import type { UploadView } from '#contracts/application-views.ts';
import type { Notification as NotificationItem, NotificationList } from '#contracts/notifications.ts';
import { CARD_ROWS } from '../ui/card-rows.ts';

const TABS = [['dashboard', 'Dashboard'], ['applications', 'Applications'], ['documents', 'Documents'], ['payments', 'Payments'], ['notifications', 'Notifications'], ['profile', 'Profile']] as const;
const country = (v?: string | null) => countryName(v);

/**
 * The notifications of `a` and `b` once each (by id; read when either copy is read), newest first as the API orders
 * them (createdAt, then id, descending).
 */
function mergeNotes(a: NotificationItem[], b: NotificationItem[]): NotificationItem[] {
  const byId = new Map<number, NotificationItem>();
  for (const n of [...a, ...b]) {
    const seen = byId.get(n.id);
    byId.set(n.id, seen ? { ...seen, read: seen.read || n.read } : n);
  }
  return [...byId.values()].sort((x, y) => (x.createdAt < y.createdAt ? 1 : x.createdAt > y.createdAt ? -1 : y.id - x.id));
}

/**
 * `raw` (the phone as stored) written for people ('082 123 4567', lib/phone.ts formatPhone) once `wanted` (the Profile
 * tab is open); until then, and if the formatter cannot load (offline, never fetched), `raw` as it is. The formatter
 * and its libphonenumber metadata (≈ 10 KB gzip) load only then, not with the dashboard (issue #17: ≤ 40 KB of
 * JavaScript on /dashboard/student).
 */
function usePhoneForPeople(raw: string | null, wanted: boolean): string | null {
  const [shown, setShown] = useState<{ raw: string; text: string } | null>(null);
  useEffect(() => {
    if (!wanted || !raw) return;
    let live = true;
    import('../../lib/phone.ts').then(({ formatPhone }) => { if (live) setShown({ raw, text: formatPhone(raw) }); }).catch(() => {});
    return () => { live = false; };
  }, [raw, wanted]);
  return shown && shown.raw === raw ? shown.text : raw;
}

/** The /dashboard/student island (see the file comment). */
export default function StudentDashboard() {
  const session = useSession();
  useEffect(() => startStudentReads('dashboard'), []);
  const user = session.user;
  const allowed = Boolean(user && user.role === 'student');
  const [tab, setTab] = useState('dashboard');
  const shownPhone = usePhoneForPeople(user?.phone ?? null, tab === 'profile');
  useEffect(() => { if (!session.isLoading && !allowed) window.location.replace('/login'); }, [session.isLoading, allowed]);

  const apps = useStore($dashboardApplications);
  const notes = useStore($notifications);
  // Offline: the last-known copies, marked with when they were fetched (issue #16 point 4).
  const staleSince = apps.data?.offlineSince ?? notes.data?.offlineSince ?? null;
  const [uploads, setUploads] = useState<UploadView[] | null>(null);
  // Older notifications loaded with "Show older notifications" (null until asked). Once shown, the ones a poll pushes
  // out of the newest page stay listed, so the list never gets a gap between the newest page and the older ones.
  const [older, setOlder] = useState<{ items: NotificationItem[]; hasMore: boolean } | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const page = notes.data?.items;
  useEffect(() => { if (page) setOlder((o) => (o ? { ...o, items: mergeNotes(o.items, page.notifications) } : o)); }, [page]);
  useEffect(() => { if (tab === 'documents' && allowed) void api<{ uploads: UploadView[] }>('/api/uploads').then((r) => setUploads(r.uploads)).catch(() => setUploads([])); }, [tab, allowed]);

  if (session.isLoading || !allowed || (!apps.data && !apps.error) || (!notes.data && !notes.error)) return <Spinner label="Loading your dashboard…" />;
  const applications = apps.data?.items ?? [];
  const newest = page?.notifications ?? [];
  const notifications = older ? mergeNotes(newest, older.items) : newest;
  const hasOlder = older ? older.hasMore : (page?.hasMore ?? false);
  // Every unread notification of the user, as the server counts them (not only the loaded ones').
  const unread = page?.unreadCount ?? 0;
  const latest = applications[0];

  // Where the focus goes after Mark as read removes the button it was on: the next unread notification's button in
  // the same list, else the list's heading (WCAG 2.4.3).
  function focusAfterMark(button: HTMLElement) {
    const list = button.closest('[data-testid="notifications"]');
    const buttons = list ? [...list.querySelectorAll<HTMLElement>('[data-mark-read]')] : [];
    const next = buttons[buttons.indexOf(button) + 1] ?? buttons[buttons.indexOf(button) - 1];
    const heading = button.closest('section, [role="tabpanel"]')?.querySelector<HTMLElement>('h2');
    requestAnimationFrame(() => { (next?.isConnected ? next : heading)?.focus(); });
  }
  async function markRead(id: number, button: HTMLElement) {
    try {
      await api(`/api/notifications/${id}/read`, { method: 'PUT' });
      focusAfterMark(button);
      const wasUnread = notifications.some((n) => n.id === id && !n.read);
      if (page) $notifications.mutate({ items: { ...page, notifications: newest.map((n) => (n.id === id ? { ...n, read: true } : n)), unreadCount: Math.max(0, page.unreadCount - (wasUnread ? 1 : 0)) }, offlineSince: null });
      setOlder((o) => (o ? { ...o, items: o.items.map((n) => (n.id === id ? { ...n, read: true } : n)) } : o));
    } catch { toast({ title: 'Could not mark the notification as read', variant: 'destructive' }); }
  }
  async function markAll() {
    try {
      await api('/api/notifications/read-all', { method: 'PUT' });
      if (page) $notifications.mutate({ items: { ...page, notifications: newest.map((n) => ({ ...n, read: true })), unreadCount: 0 }, offlineSince: null });
      setOlder((o) => (o ? { ...o, items: o.items.map((n) => ({ ...n, read: true })) } : o));
    } catch { toast({ title: 'Could not mark notifications as read', variant: 'destructive' }); }
  }
  async function showOlder() {
    const last = notifications[notifications.length - 1];
    if (!last || loadingOlder) return;
    setLoadingOlder(true);
    try {
      const r = await api<NotificationList>(`/api/colfront/notifications?before=${last.id}`);
      setOlder((o) => ({ items: mergeNotes(o?.items ?? newest, r.notifications), hasMore: r.hasMore }));
    } catch { toast({ title: 'Could not load older notifications', variant: 'destructive' }); }
    finally { setLoadingOlder(false); }
  }

  const notificationList = (items: NotificationItem[]) => items.length === 0 ? <p className="muted">No notifications yet</p> : (
    <ul className="divide-y divide-slate-200 dark:divide-slate-700" data-testid="notifications">
      {items.map((n) => (
        <li key={n.id} className="flex items-start justify-between gap-3 py-3 max-[20em]:flex-wrap">
          <div className="min-w-0 [overflow-wrap:anywhere]">
            <p className={n.read ? 'muted' : 'font-medium'}>{!n.read && <span className="sr-only">Unread: </span>}{n.message}</p>
            <p className="text-xs muted">{formatDateTime(n.createdAt)}{n.applicationId ? <> · <a className="-my-1 inline-block py-1 underline" href={`/applications/${n.applicationId}`}>{appRef(n.applicationId)}</a></> : null}</p>
          </div>
          {!n.read && <button type="button" data-mark-read className="btn-secondary shrink-0 px-2 py-1 text-xs" onClick={(e) => void markRead(n.id, e.currentTarget)} aria-label={`Mark as read: ${n.message}`}>Mark as read</button>}
        </li>
      ))}
    </ul>
  );

  return (
    <div>
      <div className="mb-6">
        {/* Looser leading than text-3xl's 1.2: a mark below a letter (Ṱ in Ṱhalitshani) kept off the wrapped next line. */}
        <h1 className="text-3xl font-extrabold leading-snug">Welcome, {user!.firstName}</h1>
        <p className="muted">Your applications, documents, payments and messages in one place.</p>
        {staleSince && (
          <p role="status" data-testid="offline-banner" className="mt-3 rounded-md bg-amber-100 p-3 text-sm text-amber-950 dark:bg-amber-900 dark:text-amber-50">
            You are offline. This is your last-known information from {formatDateTime(staleSince)}; it will update when you are back online.
          </p>
        )}
      </div>
      <VerifyEmailBanner email={user!.email} verified={user!.emailVerified !== false} />
      <Tabs.Root value={tab} onValueChange={setTab}>
        <Tabs.List aria-label="Dashboard sections" className="mb-6 flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-700">
          {TABS.map(([v, label]) => (
            <Tabs.Trigger key={v} value={v} className="-mb-px border-b-2 border-transparent px-3 py-2 text-sm font-medium data-[state=active]:border-brand-700 data-[state=active]:text-brand-700 forced-colors:border-[Canvas] forced-colors:data-[state=active]:border-[Highlight] dark:data-[state=active]:text-brand-100">
              {label}{v === 'notifications' && unread > 0 ? <span className="ml-1 rounded-full bg-red-700 px-1.5 text-xs text-white"><span className="sr-only">, </span>{unread}<span className="sr-only"> unread</span></span> : null}
            </Tabs.Trigger>
          ))}
        </Tabs.List>

        <Tabs.Content value="dashboard" className="grid grid-cols-1 gap-6 outline-none lg:grid-cols-3">
          <section className="card p-6 lg:col-span-2" aria-labelledby="progress-h">
            <h2 id="progress-h" className="mb-4 text-xl font-semibold">Application progress</h2>
            {latest ? (
              <>
                <p className="mb-1 font-medium"><span className="max-[20em]:hyphens-auto" lang="en">{courseName(latest)}</span> <span className="text-sm muted">({appRef(latest.id)})</span></p>
                <div className="mb-4"><StatusBadge status={latest.status} /></div>
                <ProgressBar value={applicationProgress(latest)} label="Overall progress" />
                <ol className="mt-4 grid grid-cols-1 gap-1.5 text-xs sm:grid-cols-5 sm:gap-2 sm:text-center" aria-label="Milestones">
                  {MILESTONES.map((m, i) => {
                    const done = milestonesReached(latest)[i];
                    return (
                      <li key={m} className="flex items-center gap-2 sm:flex-col sm:gap-1">
                        <span aria-hidden="true" className={`flex h-7 w-7 shrink-0 items-center justify-center rounded-full ${done ? 'bg-brand-700 text-white' : 'bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200'}`}>{done ? '✓' : i + 1}</span>
                        <span>{m}<span className="sr-only">{done ? ' (done)' : ' (to do)'}</span></span>
                      </li>
                    );
                  })}
                </ol>
                <ApplicationAlerts app={latest} />
                <a href={`/applications/${latest.id}`} className="btn-secondary mt-4">View application</a>
              </>
            ) : (
              <div><p className="muted">You have not applied for a course yet.</p><a href="/courses" className="btn-primary mt-4">Browse Courses</a></div>
            )}
          </section>
          <section className="card p-6" aria-labelledby="deadlines-h">
            <h2 id="deadlines-h" className="mb-4 text-xl font-semibold">Upcoming deadlines</h2>
            {latest && deadlinesFor(latest.course?.startDate).length ? (
              <ul className="space-y-3 text-sm" data-testid="deadlines">
                {deadlinesFor(latest.course?.startDate).map((d) => (
                  <li key={d.label} className="flex justify-between gap-2"><span>{d.label}<span className="block text-xs muted">{formatDate(d.date)}</span></span><span className="font-semibold">{daysLeftText(d.daysLeft)}</span></li>
                ))}
              </ul>
            ) : <p className="text-sm muted">{latest ? 'Start date to be confirmed: contact the college for dates.' : 'Deadlines appear once you apply for a course.'}</p>}
          </section>
          <section className="card p-6 lg:col-span-3" aria-labelledby="latest-h">
            <div className="mb-2 flex items-center justify-between">
              <h2 id="latest-h" tabIndex={-1} className="text-xl font-semibold">Latest notifications</h2>
              <button type="button" className="-my-1 min-h-6 py-1 text-sm underline" onClick={() => setTab('notifications')}>View all</button>
            </div>
            {notificationList(notifications.slice(0, 3))}
          </section>
        </Tabs.Content>

        <Tabs.Content value="applications" className="outline-none">
          {applications.length === 0 ? <div className="card p-8 text-center"><p className="muted">No applications found</p><a href="/courses" className="btn-primary mt-4">Browse Courses</a></div> : (
            <ul className="space-y-4">
              {applications.map((a) => (
                <li key={a.id} className="card p-5">
                  <div className="flex flex-wrap items-center justify-between gap-3">
                    <div className="min-w-0"><p className="font-semibold max-[20em]:hyphens-auto" lang="en">{courseName(a)}</p><p className="text-xs muted">{appRef(a.id)} · Applied {formatDate(a.submittedAt)}</p></div>
                    <StatusBadge status={a.status} />
                  </div>
                  <div className="mt-3"><ProgressBar value={applicationProgress(a)} label="Progress" /></div>
                  <a href={`/applications/${a.id}`} className="mt-3 inline-block text-sm underline">View details<span className="sr-only"> of {appRef(a.id)}</span></a>
                </li>
              ))}
            </ul>
          )}
        </Tabs.Content>

        <Tabs.Content value="documents" className="outline-none">
          {uploads === null ? <Spinner label="Loading documents…" /> : uploads.length === 0 ? <p className="card p-8 text-center muted">No documents uploaded yet.</p> : (
            <div className="card overflow-x-auto" tabIndex={0} role="region" aria-label="Your uploaded documents">
              <table className={`w-full text-left text-sm ${CARD_ROWS.block}`}>
                <caption className="sr-only">Your uploaded documents</caption>
                <thead className={CARD_ROWS.visuallyHidden}><tr className="border-b border-slate-200 dark:border-slate-700"><th scope="col" className="p-3">File</th><th scope="col" className="p-3">Used for</th><th scope="col" className="p-3">Size</th><th scope="col" className="p-3">Uploaded</th></tr></thead>
                <tbody className={CARD_ROWS.block}>
                  {uploads.map((u) => {
                    const uses = applications.flatMap((a) => DOCUMENT_SLOTS.filter((s) => a.documents?.[s.key] === u.id).map((s) => `${s.label}, ${appRef(a.id)}`));
                    return (
                      <tr key={u.id} className={`border-b border-slate-100 dark:border-slate-800 ${CARD_ROWS.row}`}>
                        <td className={`p-3 ${CARD_ROWS.cell}`}><a className="underline wrap-anywhere" href={`/api/uploads/${encodeURIComponent(u.id)}`} download>{u.name}</a></td>
                        <td className={`p-3 ${CARD_ROWS.labelled}`} data-label="Used for">{uses.join('; ') || 'Not attached'}</td>
                        <td className={`p-3 ${CARD_ROWS.labelled}`} data-label="Size">{formatBytes(u.size)}</td>
                        <td className={`p-3 ${CARD_ROWS.labelled}`} data-label="Uploaded">{formatDate(u.createdAt)}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
        </Tabs.Content>

        <Tabs.Content value="payments" className="outline-none">
          {applications.every((a) => !a.payment) ? <p className="card p-8 text-center muted">No payments yet.</p> : (
            <div className="card overflow-x-auto" tabIndex={0} role="region" aria-label="Your payments">
              <table className={`w-full text-left text-sm ${CARD_ROWS.block}`}>
                <caption className="sr-only">Your payments</caption>
                <thead className={CARD_ROWS.visuallyHidden}><tr className="border-b border-slate-200 dark:border-slate-700"><th scope="col" className="p-3">Reference</th><th scope="col" className="p-3">For</th><th scope="col" className="p-3">Amount</th><th scope="col" className="p-3">Method</th><th scope="col" className="p-3">Status</th><th scope="col" className="p-3">Date</th></tr></thead>
                <tbody className={CARD_ROWS.block}>
                  {applications.filter((a) => a.payment).map((a) => (
                    <tr key={a.id} className={`border-b border-slate-100 dark:border-slate-800 ${CARD_ROWS.row}`}>
                      <td className={`p-3 font-mono wrap-anywhere ${CARD_ROWS.cell} max-lg:font-semibold`}>{a.payment!.reference}</td>
                      <td className={`p-3 ${CARD_ROWS.labelled}`} data-label="For">Application fee, {appRef(a.id)}</td>
                      <td className={`p-3 ${CARD_ROWS.labelled}`} data-label="Amount">{formatMoney(a.payment!.amount, 'USD')}</td>
                      <td className={`p-3 ${CARD_ROWS.labelled}`} data-label="Method">{a.payment!.method === 'card' ? `Card${a.payment!.last4 ? ` ending in ${a.payment!.last4}` : ''}` : 'PayPal'}</td>
                      <td className={`p-3 ${CARD_ROWS.labelled}`} data-label="Status">{statusLabel(a.payment!.status)}</td>
                      <td className={`p-3 ${CARD_ROWS.labelled}`} data-label="Date">{formatDate(a.payment!.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Tabs.Content>

        <Tabs.Content value="notifications" className="card p-6 outline-none">
          <div className="mb-2 flex items-center justify-between">
            <h2 tabIndex={-1} className="text-xl font-semibold">Notifications</h2>
            {unread > 0 && <button type="button" className="btn-secondary px-3 py-1" onClick={() => void markAll()}>Mark all as read</button>}
          </div>
          {notificationList(notifications)}
          {hasOlder && (
            <button type="button" className="btn-secondary mt-4 px-3 py-1" data-testid="older-notifications" aria-busy={loadingOlder} onClick={() => void showOlder()}>
              {loadingOlder ? 'Loading…' : 'Show older notifications'}
            </button>
          )}
        </Tabs.Content>

        <Tabs.Content value="profile" className="card p-6 outline-none">
          <h2 className="mb-4 text-xl font-semibold">Profile</h2>
          <dl className="grid gap-y-2 text-sm sm:grid-cols-[12rem_1fr]">
            {([
              ['Name', `${user!.firstName} ${user!.lastName}`], ['Email', user!.email], ['Phone', shownPhone], ['Date of birth', formatDate(user!.dateOfBirth) || user!.dateOfBirth],
              ['Nationality', country(user!.nationality)],
              ['Address', [user!.addressLine1, user!.addressLine2, user!.city, user!.state, user!.postalCode, country(user!.country)].filter(Boolean).join(', ')],
              ['Member since', formatDate(user!.createdAt)],
            ] as [string, string | null][]).map(([k, v]) => <div key={k} className="contents"><dt className="muted">{k}</dt><dd>{v || 'Not provided'}</dd></div>)}
          </dl>
          <a href="/profile" className="btn-secondary mt-6">Edit profile</a>
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
