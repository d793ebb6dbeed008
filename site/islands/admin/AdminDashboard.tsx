/**
 * /dashboard/admin (spec §2 Admin dashboard): tabs Dashboard, Applications, Courses, Departments, Students,
 * Payments, Reports, Settings, External System; links to /admin/announcements and the external pages.
 * The Dashboard tab: totals by status, acceptance rate (accepted share), completion rate (accepted + rejected
 * share), fees collected (completed payments, two decimals), 5 recent applications, 4 courses, the four
 * departments and the last site build. Heavy tabs load on first open. The tab lives in the URL hash.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import * as Tabs from '@radix-ui/react-tabs';
import { APPLICATION_STATUSES, statusLabel } from '#contracts/statuses.ts';
import { appRef, formatMoney, formatStaffDateTime, levelLabel } from '../../lib/format.ts';
import { useAdminAccess } from './use-admin.ts';
import { $adminStats, $latestFees, $siteBuild, type SiteBuild } from './admin-stores.ts';
import { AccessGate } from './admin-ui.tsx';
import { ErrorState } from '../ui/ErrorState.tsx';
import { SkeletonRows } from '../ui/SkeletonRows.tsx';
import { StatusBadge } from '../ui/StatusBadge.tsx';
import { CARD_ROWS } from '../ui/card-rows.ts';

const ApplicationsManager = lazy(() => import('./ApplicationsManager.tsx'));
const CoursesManager = lazy(() => import('./CoursesManager.tsx'));
const StudentsList = lazy(() => import('./StudentsList.tsx'));
const SettingsForm = lazy(() => import('./SettingsForm.tsx'));
const ReportsPanel = lazy(() => import('./ReportsPanel.tsx'));

const TABS = [['dashboard', 'Dashboard'], ['applications', 'Applications'], ['courses', 'Courses'], ['departments', 'Departments'], ['students', 'Students'],
  ['payments', 'Payments'], ['reports', 'Reports'], ['settings', 'Settings'], ['external', 'External System']] as const;
type Tab = typeof TABS[number][0];

/** The /dashboard/admin island: the tabbed dashboard for admins (see the file comment). */
export default function AdminDashboard() {
  const access = useAdminAccess();
  return <AccessGate access={access}><Dashboard /></AccessGate>;
}

function Dashboard() {
  const [tab, setTab] = useState<Tab>('dashboard');
  useEffect(() => {
    const fromHash = () => { const h = window.location.hash.slice(1); if (TABS.some(([k]) => k === h)) setTab(h as Tab); };
    fromHash();
    window.addEventListener('hashchange', fromHash);
    return () => window.removeEventListener('hashchange', fromHash);
  }, []);
  const change = (v: string) => { setTab(v as Tab); history.replaceState(null, '', v === 'dashboard' ? window.location.pathname : `#${v}`); };
  const fallback = <SkeletonRows rows={6} label="Loading" />;
  return (
    <div>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Admin Dashboard</h1>
        <a href="/admin/announcements" className="btn-secondary">Manage announcements</a>
      </div>
      <Tabs.Root value={tab} onValueChange={change}>
        <Tabs.List aria-label="Admin sections" className="mb-4 flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-700">
          {TABS.map(([k, label]) => (
            <Tabs.Trigger key={k} value={k} className="rounded-t px-3 py-2 text-sm font-medium text-slate-700 data-[state=active]:border-b-2 data-[state=active]:border-brand-700 data-[state=active]:text-brand-700 dark:text-slate-200 dark:data-[state=active]:text-brand-100">{label}</Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="dashboard"><Overview onTab={change} /></Tabs.Content>
        <Tabs.Content value="applications"><Suspense fallback={fallback}><ApplicationsManager heading={false} /></Suspense></Tabs.Content>
        <Tabs.Content value="courses"><Suspense fallback={fallback}><CoursesManager heading={false} /></Suspense></Tabs.Content>
        <Tabs.Content value="departments"><Departments /></Tabs.Content>
        <Tabs.Content value="students"><Suspense fallback={fallback}><StudentsList heading={false} /></Suspense></Tabs.Content>
        <Tabs.Content value="payments"><Payments /></Tabs.Content>
        <Tabs.Content value="reports"><Suspense fallback={fallback}><ReportsPanel /></Suspense></Tabs.Content>
        <Tabs.Content value="settings"><Suspense fallback={fallback}><SettingsForm heading={false} /></Suspense></Tabs.Content>
        <Tabs.Content value="external"><External /></Tabs.Content>
      </Tabs.Root>
    </div>
  );
}

/** The dashboard totals, shared by the Overview, Departments and Payments tabs (one request). */
function useStats() {
  const { data: stats, error } = useStore($adminStats);
  return { stats, error: Boolean(error), load: () => $adminStats.revalidate() };
}

function Stat({ label, value, testid }: { label: string; value: string | number; testid?: string }) {
  return <div className="card p-4"><p className="text-sm muted">{label}</p><p className="text-2xl font-bold" data-testid={testid}>{value}</p></div>;
}

/**
 * A card heading's text button (View all, Manage courses): below 640 px its tap area is 44 px tall, as the phone rule
 * for buttons in global.css (usability audit, November 2026), with negative margins so the card's layout stays.
 * Its row wraps under the heading when both do not fit: at 1024 px with text at 200 % as a page style, 'Manage
 * courses' ran 32 px past the screen.
 */
const CARD_LINK = 'text-sm underline max-sm:-my-3 max-sm:inline-flex max-sm:min-h-11 max-sm:items-center';

function Overview({ onTab }: { onTab: (t: string) => void }) {
  const { stats, error, load } = useStats();
  if (error) return <ErrorState message="Could not load the dashboard." onRetry={load} />;
  if (!stats) return <SkeletonRows rows={6} label="Loading dashboard" />;
  return (
    <div className="space-y-6">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Stat label="Total applications" value={stats.totals.applications} testid="stat-total" />
        <Stat label="Acceptance rate" value={`${stats.acceptanceRate}%`} testid="stat-acceptance" />
        <Stat label="Completion rate" value={`${stats.completionRate}%`} testid="stat-completion" />
        <Stat label="Fees collected" value={formatMoney(stats.feesCollected, 'USD')} testid="stat-fees" />
      </div>
      {/* A column is at least 13.5rem, room for the widest badge (Documents Required, 10rem) and a four-digit count
          beside it: from 640 px, two or three columns as many as fit the card (a size container; its rem follows the
          text however it is enlarged). Three fixed columns were 191 px at 768 px with text at 200 % as a page style,
          and the badge broke onto two lines with its count on a third (layout review, November 2026).
          Each count is a 40 px tall link in a 24 px row (py-2 -my-2): the rows are 16 px apart (gap-y-4, was 8 px), so
          one count's target ends where the next one's starts; with an 8 px gap they shared 8 px and a tap on the lower
          quarter of a count went to the next status (review, 2026-11-28). */}
      <section aria-labelledby="by-status" className="card p-4 @container">
        <h2 id="by-status" className="mb-2 font-semibold">Applications by status</h2>
        <ul className="grid grid-cols-1 gap-x-2 gap-y-4 sm:@min-[27.5rem]:grid-cols-2 sm:@min-[41.5rem]:grid-cols-3">
          {APPLICATION_STATUSES.map((s) => <li key={s} className="flex flex-wrap items-center justify-between gap-2"><StatusBadge status={s} /><a className="-my-2 inline-block min-w-10 py-2 text-right font-semibold underline" data-testid={`status-${s}`} href={`/admin/applications?status=${s}`} aria-label={`${stats.totals.byStatus[s] ?? 0} ${statusLabel(s)}: show these applications`}>{stats.totals.byStatus[s] ?? 0}</a></li>)}
        </ul>
        <p className="mt-2 text-sm muted">{stats.totals.students} {stats.totals.students === 1 ? 'student' : 'students'} · {stats.totals.activeCourses} of {stats.totals.courses} courses active</p>
      </section>
      {stats.sms && (
        <section aria-labelledby="sms-stats" className="card p-4">
          <h2 id="sms-stats" className="mb-2 font-semibold">SMS</h2>
          {/* Message counts read sms_outbox, whose sent and failed rows the retention sweep deletes after 90 days
              (RETENTION_DAYS.messages; Privacy Policy "How long we keep it"); opted out counts people, not messages. */}
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-[3fr_1fr]">
            <div role="group" aria-labelledby="sms-messages">
              <h3 id="sms-messages" className="mb-1 text-sm font-semibold">Messages, last 90 days</h3>
              <dl className="grid grid-cols-1 gap-2 sm:grid-cols-3">
                <div><dt className="text-sm muted">Sent</dt><dd className="text-xl font-bold" data-testid="sms-sent">{stats.sms.sent}</dd></div>
                <div><dt className="text-sm muted">Failed</dt><dd className="text-xl font-bold" data-testid="sms-failed">{stats.sms.failed}</dd></div>
                <div><dt className="text-sm muted">Waiting to be sent</dt><dd className="text-xl font-bold" data-testid="sms-pending">{stats.sms.pending}</dd></div>
              </dl>
            </div>
            <div role="group" aria-labelledby="sms-people">
              <h3 id="sms-people" className="mb-1 text-sm font-semibold">People</h3>
              <dl><div><dt className="text-sm muted">Opted out of SMS</dt><dd className="text-xl font-bold" data-testid="sms-opted-out">{stats.sms.optedOut}</dd></div></dl>
            </div>
          </div>
        </section>
      )}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <section aria-labelledby="recent" className="card p-4">
          <div className="mb-2 flex flex-wrap items-center justify-between gap-x-4"><h2 id="recent" className="font-semibold">Recent applications</h2>
            <button type="button" className={CARD_LINK} onClick={() => onTab('applications')}>View all</button></div>
          {stats.recentApplications.length === 0 ? <p className="muted">No applications found</p> : (
            <ul className="divide-y divide-slate-100 dark:divide-slate-800">
              {stats.recentApplications.map((a) => (
                <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm" data-testid="recent-app">
                  <span className="min-w-0 wrap-anywhere"><a className="font-mono underline" href={`/admin/applications?q=${appRef(a.id)}`} aria-label={`Open ${appRef(a.id)}`}>{appRef(a.id)}</a> · {a.applicant.name}<span className="block muted">{a.course?.title ?? 'Unknown Course'} · {formatStaffDateTime(a.createdAt)}</span></span>
                  <StatusBadge status={a.status} />
                </li>))}
            </ul>)}
        </section>
        <section aria-labelledby="courses4" className="card p-4">
          <div className="mb-2 flex flex-wrap items-center justify-between gap-x-4"><h2 id="courses4" className="font-semibold">Courses</h2>
            <button type="button" className={CARD_LINK} onClick={() => onTab('courses')}>Manage courses</button></div>
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {stats.courses.map((c) => <li key={c.id} className="py-2 text-sm wrap-anywhere" data-testid="dash-course">{c.title}<span className="block muted">{levelLabel(c.level)} · {c.department}{c.isActive ? '' : ' · inactive'}</span></li>)}
          </ul>
        </section>
      </div>
      <section aria-labelledby="depts" className="card p-4">
        <h2 id="depts" className="mb-2 font-semibold">Departments</h2>
        <ul className="grid grid-cols-1 gap-2 sm:grid-cols-4">{stats.departments.map((d) => <li key={d.name} data-testid="dept">{d.name} <span className="muted">({d.courses} course{d.courses === 1 ? '' : 's'})</span></li>)}</ul>
      </section>
      <BuildStatus />
    </div>
  );
}

/** The state of the last publish (DESIGN §4 Rebuild on publish); $siteBuild polls every 10 s while the tab is visible. */
function BuildStatus() {
  const b = useStore($siteBuild).data;
  return (
    <section aria-labelledby="build" className="card p-4" aria-live="polite">
      <h2 id="build" className="mb-1 font-semibold">Public site</h2>
      {!b ? <p className="muted">Checking…</p>
        : b.building ? <p>Publishing changes…</p>
        : !b.build ? <p className="muted">No build recorded yet.</p>
        : b.build.status === 'ok' && b.build.leftOut?.length ? <LeftOut build={b.build} />
        : b.build.status === 'ok' ? <p data-testid="build-status">Last published {formatStaffDateTime(b.build.finishedAt)} in {((b.build.durationMs ?? 0) / 1000).toFixed(1)} s — ok.</p>
        : b.build.status === 'running' ? <p>Publishing changes…</p>
        : <p className="text-red-800 dark:text-red-300" data-testid="build-status">Last publish failed {formatStaffDateTime(b.build.finishedAt)} after {((b.build.durationMs ?? 0) / 1000).toFixed(1)} s; the previous version stays live. {b.build.error?.split('\n').slice(-1)[0]}</p>}
    </section>
  );
}

/**
 * An ok build that left pictures out (site/lib/remote-image.ts; admin audit: a course picture was dropped silently):
 * "Published …, but 1 course picture could not be used:" and one line per picture, naming the course and the reason.
 */
function LeftOut({ build }: { build: SiteBuild }) {
  const items = build.leftOut ?? [];
  const courses = items.filter((i) => i.course).length;
  const what = courses === items.length ? `course picture${items.length === 1 ? '' : 's'}` : `picture${items.length === 1 ? '' : 's'}`;
  return (
    <div data-testid="build-status" className="text-amber-900 dark:text-amber-200">
      <p>Published {formatStaffDateTime(build.finishedAt)}, but {items.length} {what} could not be used (the default picture shows instead):</p>
      <ul className="mt-1 list-disc pl-5 text-sm">{items.map((i) => <li key={i.url}>{i.course ?? i.url} ({i.reason})</li>)}</ul>
    </div>
  );
}

function Departments() {
  const { stats, error, load } = useStats();
  if (error) return <ErrorState message="Could not load departments." onRetry={load} />;
  if (!stats) return <SkeletonRows rows={4} label="Loading departments" />;
  return (
    <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2">
      {stats.departments.map((d) => <li key={d.name} className="card p-4"><h2 className="font-semibold">{d.name}</h2><p className="muted">{d.courses} course{d.courses === 1 ? '' : 's'}</p></li>)}
    </ul>
  );
}

function Payments() {
  const { stats } = useStats();
  const fees = useStore($latestFees);
  const rows = fees.data?.applications;
  const error = Boolean(fees.error);
  return (
    <div className="space-y-4">
      <p className="text-lg">Fees collected: <strong>{stats ? formatMoney(stats.feesCollected, 'USD') : '…'}</strong></p>
      {error ? <ErrorState message="Error loading payment data. Please try again." /> : !rows ? <SkeletonRows rows={5} label="Loading payments" /> : (
        <div className="card overflow-x-auto" tabIndex={0} role="region" aria-label="Latest application fees">
          <table className={`w-full text-sm ${CARD_ROWS.block}`}>
            <caption className="px-3 py-2 text-left font-semibold">Latest application fees</caption>
            <thead className={CARD_ROWS.visuallyHidden}><tr className="text-left"><th scope="col" className="px-3 py-2">Application</th><th scope="col" className="px-3 py-2">Applicant</th><th scope="col" className="px-3 py-2">Amount</th><th scope="col" className="px-3 py-2">Payment</th><th scope="col" className="px-3 py-2">Date</th></tr></thead>
            <tbody className={CARD_ROWS.block}>{rows.map((a) => (
              <tr key={a.id} className={`border-t border-slate-100 dark:border-slate-800 ${CARD_ROWS.row}`}>
                <td className={`px-3 py-2 font-mono ${CARD_ROWS.cell} max-lg:font-semibold`}>{appRef(a.id)}</td>
                <td className={`px-3 py-2 ${CARD_ROWS.labelled}`} data-label="Applicant">{a.applicant.name}</td>
                <td className={`px-3 py-2 ${CARD_ROWS.labelled}`} data-label="Amount">{formatMoney(a.paymentAmount, 'USD')}</td>
                <td className={`px-3 py-2 ${CARD_ROWS.labelled}`} data-label="Payment">{statusLabel(a.paymentStatus)}</td>
                <td className={`px-3 py-2 ${CARD_ROWS.labelled}`} data-label="Date">{formatStaffDateTime(a.createdAt)}</td>
              </tr>))}</tbody>
          </table>
        </div>)}
      <p className="text-sm"><a className="underline" href="/admin/external-payments">External payments ledger</a></p>
    </div>
  );
}

function External() {
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
      <a href="/admin/branches" className="card block p-4 hover:border-brand-700"><h2 className="font-semibold">Branches</h2><p className="text-sm muted">Campuses and their students</p></a>
      <a href="/admin/external-students" className="card block p-4 hover:border-brand-700"><h2 className="font-semibold">External students</h2><p className="text-sm muted">Enrolled students in the administration system</p></a>
      <a href="/admin/external-payments" className="card block p-4 hover:border-brand-700"><h2 className="font-semibold">External payments</h2><p className="text-sm muted">Payments ledger and new payments</p></a>
    </div>
  );
}
