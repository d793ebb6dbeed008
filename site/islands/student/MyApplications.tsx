/**
 * /my-applications (spec §2 My Applications, §4): login required (→ /login?redirect=/my-applications, so signing in comes back here); counters Total, Pending, Accepted,
 * Rejected; tabs All, Pending, Accepted, Completed by the §4 filter groups; cards with badge colour, applied date,
 * department, duration ('N/A'), progress and 'View Details' (→ /applications/{id}); the documents_required and
 * payment_pending alerts; empty states. Polls every 30 s while the tab is visible (spec §9, student-stores.ts).
 */
import { useEffect, useState } from 'react';
import * as Tabs from '@radix-ui/react-tabs';
import { FILTER_GROUPS } from '#contracts/application-steps.ts';
import { useStore } from '@nanostores/react';
import { appRef, formatDate } from '../../lib/format.ts';
import { useSession } from '../ui/use-session.ts';
import { ApplicationAlerts } from './ApplicationAlerts.tsx';
import { applicationProgress, courseName, ProgressBar } from './shared.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { redirectToLogin } from '../auth/redirect-to-login.ts';
import { $myApplications, startStudentReads } from './student-stores.ts';
import { StatusBadge } from '../ui/StatusBadge.tsx';
import type { ApplicationListItem as ApplicationItem } from '#contracts/application-views.ts';

type Filter = keyof typeof FILTER_GROUPS;
const TABS: [Filter, string][] = [['all', 'All'], ['pending', 'Pending'], ['accepted', 'Accepted'], ['completed', 'Completed']];
const inGroup = (f: Filter, status: string) => { const g = FILTER_GROUPS[f]; return !g || g.includes(status); };

/** What an applicant reads when the list could not be loaded (never the API's raw 'API Error (500): {…}'). */
export const LOAD_FAILED = 'We could not load your applications. Check your connection and press Try again.';

/** The /my-applications island (see the file comment). */
export default function MyApplications() {
  const session = useSession();
  useEffect(() => startStudentReads('my-applications'), []);
  const [tab, setTab] = useState<Filter>('all');
  useEffect(() => { if (!session.isLoading && !session.user) redirectToLogin(); }, [session.isLoading, session.user]);
  const apps = useStore($myApplications);
  useEffect(() => { if (apps.data === null) redirectToLogin(); }, [apps.data]);

  if (session.isLoading || !session.user || (!apps.data && !apps.error)) return <Spinner label="Loading your applications…" />;
  if (apps.error && !apps.data) {
    return <div role="alert" className="card p-6"><p className="font-semibold">{LOAD_FAILED}</p><button type="button" className="btn-secondary mt-4" onClick={() => $myApplications.revalidate()}>Try again</button></div>;
  }
  const list = apps.data ?? [];
  const count = (f: Filter) => list.filter((a) => inGroup(f, a.status)).length;
  const counters: [string, number][] = [['Total', list.length], ['Pending', count('pending')], ['Accepted', count('accepted')], ['Rejected', list.filter((a) => a.status === 'rejected').length]];

  return (
    <div>
      <div className="mb-8 flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-extrabold">My Applications</h1>
        <a href="/courses" className="btn-primary">New Application</a>
      </div>
      {list.length === 0 ? (
        <div className="card p-10 text-center">
          <h2 className="text-xl font-semibold">No Applications Yet</h2>
          <p className="mt-2 muted">You have not applied for a course yet. Find a course and apply online in minutes.</p>
          <a href="/courses" className="btn-primary mt-6">Browse Courses</a>
        </div>
      ) : (
        <>
          <dl className="mb-8 grid grid-cols-2 gap-4 sm:grid-cols-4">
            {counters.map(([label, n]) => (
              <div key={label} className="card p-4" data-testid={`counter-${label.toLowerCase()}`}>
                <dt className="text-sm muted">{label}</dt><dd className="text-3xl font-bold">{n}</dd>
              </div>
            ))}
          </dl>
          <Tabs.Root value={tab} onValueChange={(v) => setTab(v as Filter)}>
            <Tabs.List aria-label="Filter applications" className="mb-6 flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-700">
              {TABS.map(([v, label]) => (
                <Tabs.Trigger key={v} value={v} className="-mb-px border-b-2 border-transparent px-3 py-2 text-sm sm:px-4 font-medium data-[state=active]:border-brand-700 data-[state=active]:text-brand-700 forced-colors:border-[Canvas] forced-colors:data-[state=active]:border-[Highlight] dark:data-[state=active]:text-brand-100">{label}</Tabs.Trigger>
              ))}
            </Tabs.List>
            {TABS.map(([v]) => {
              const shown = list.filter((a) => inGroup(v, a.status));
              return (
                <Tabs.Content key={v} value={v} className="outline-none">
                  {shown.length === 0 ? <p className="card p-8 text-center muted">No applications found for this filter.</p> : (
                    <ul className="grid grid-cols-1 gap-6 md:grid-cols-2">{shown.map((a) => <li key={a.id}><ApplicationCard app={a} /></li>)}</ul>
                  )}
                </Tabs.Content>
              );
            })}
          </Tabs.Root>
        </>
      )}
    </div>
  );
}

function ApplicationCard({ app }: { app: ApplicationItem }) {
  const duration = app.course?.duration ? `${app.course.duration} month${app.course.duration === 1 ? '' : 's'}` : 'N/A';
  return (
    <article className="card flex h-full flex-col p-5" data-testid="application-card">
      <div className="flex flex-wrap items-start justify-between gap-3">
        {/* The name takes the room beside the badge (flex-1) but no less than its longest word, else the badge goes below
            it: beside a badge that keeps its width (shrink-0), 'Small Business Entrepreneurship' would break inside its
            last word at 360 px. max-w-full caps that minimum at the row (with the list's grid-cols-1): a course name of
            one very long word breaks (body's break-word) instead of widening the row and the page. */}
        <h2 className="max-w-full flex-1 text-lg font-semibold max-[20em]:hyphens-auto" lang="en">{courseName(app)}</h2>
        <StatusBadge status={app.status} />
      </div>
      <p className="text-xs muted">{appRef(app.id)}</p>
      <dl className="mt-3 grid grid-cols-[minmax(0,8rem)_minmax(0,1fr)] gap-x-2 gap-y-1 text-sm [overflow-wrap:anywhere]">
        <dt className="muted">Applied</dt><dd>{formatDate(app.submittedAt ?? app.createdAt)}</dd>
        <dt className="muted">Department</dt><dd>{app.course?.department || 'N/A'}</dd>
        <dt className="muted">Duration</dt><dd>{duration}</dd>
      </dl>
      <div className="mt-4"><ProgressBar value={applicationProgress(app)} label="Application progress" /></div>
      <ApplicationAlerts app={app} />
      <div className="mt-auto pt-4"><a href={`/applications/${app.id}`} className="btn-secondary" aria-label={`View Details of ${appRef(app.id)} ${courseName(app)}`}>View Details</a></div>
    </article>
  );
}
