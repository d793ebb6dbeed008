/**
 * Reports tab (issue #6): applications by status, by course and department, per week, acceptance rate over
 * time, fees collected — recharts charts, each with a text table beside it (the accessible version; the chart
 * itself is aria-hidden). Loaded lazily so the dashboard's first load stays small.
 *
 * Built for a college after some years (performance audit, 300 courses and ~200 weeks of applications at ×4 CPU:
 * 5–7 s to the first chart, long tasks up to 2.1 s): each table shows its first FIRST_ROWS rows with a "Show all N
 * rows" button, the weekly charts draw the last WEEKS_CHARTED weeks (a note says so; the table keeps every week),
 * and the charts mount after the first paint one at a time (useOneAtATime), so no single task draws them all.
 *
 * The by-course reports (admin-day audit item 2: at 1366×768 their tables were 362 px wide in a 329 px box, cut to
 * "Applicatio", and the bar charts named every other bar) draw horizontal bars with every course's name beside its bar,
 * and put the table under the chart at the card's full width, course names wrapping, without a height limit until
 * "Show all".
 */
import { formatMoney, formatStaffDate } from '../../lib/format.ts';
import { useEffect, useState, type ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Reports } from '#contracts/reports.ts';
import { api } from '../../lib/api-client.ts';
import { ErrorState } from '../ui/ErrorState.tsx';
import { SkeletonRows } from '../ui/SkeletonRows.tsx';

const COLOUR = '#11684a';
/** Rows a table shows until "Show all N rows" (the by-course tables have one row per course: 300 at a college). */
export const FIRST_ROWS = 15;
/** Weeks the weekly charts draw: the last year; older weeks stay in the tables. */
export const WEEKS_CHARTED = 52;

/**
 * How many of `total` charts may be drawn: 0 at the first paint, then one more per idle moment
 * (requestIdleCallback, at most 500 ms late; setTimeout 0 where there is none), so each chart is its own task.
 */
function useOneAtATime(total: number): number {
  const [n, setN] = useState(0);
  useEffect(() => {
    if (n >= total) return;
    const next = () => setN((k) => k + 1);
    if (typeof requestIdleCallback === 'function') {
      const h = requestIdleCallback(next, { timeout: 500 });
      return () => cancelIdleCallback(h);
    }
    const t = setTimeout(next, 0);
    return () => clearTimeout(t);
  }, [n, total]);
  return n;
}

/**
 * One report: its chart (drawn only once `draw` is true; a grey block of the same size until then), an optional
 * `note` under it, and the accessible table of `rows`, the first FIRST_ROWS until the admin asks for all. `wide`:
 * the table goes under the chart at full width (tables of course names) and the chart is `chartHeight` px high.
 */
function ChartBlock({ id, title, chart, draw, note, head, rows, wide = false, chartHeight = 256 }: { id: string; title: string; chart: () => ReactNode; draw: boolean; note?: string; head: string[]; rows: (string | number)[][]; wide?: boolean; chartHeight?: number }) {
  const [all, setAll] = useState(false);
  const shown = all ? rows : rows.slice(0, FIRST_ROWS);
  return (
    <section aria-labelledby={id} className="card p-4">
      <h3 id={id} className="mb-3 font-semibold">{title}</h3>
      <div className={wide ? 'grid gap-4' : 'grid gap-4 lg:grid-cols-[3fr_2fr]'}>
        <div className="min-w-0">
          <div aria-hidden="true" className="min-w-0" style={{ height: chartHeight }}>{draw ? chart() : <div className="skeleton h-full w-full" />}</div>
          {note && <p className="mt-1 text-xs muted">{note}</p>}
        </div>
        <div className="min-w-0">
          <div id={`${id}-table`} className={wide && !all ? 'overflow-auto' : 'max-h-64 overflow-auto'} tabIndex={0} role="region" aria-label={`${title} (table)`}>
            <table className="w-full text-sm">
              <caption className="sr-only">{title}</caption>
              <thead><tr>{head.map((h) => <th key={h} scope="col" className="px-1 py-1 sm:px-2 text-left">{h}</th>)}</tr></thead>
              <tbody>{rows.length === 0 ? <tr><td colSpan={head.length} className="px-1 py-1 sm:px-2 muted">No data yet</td></tr>
                : shown.map((r, i) => <tr key={i} className="border-t border-slate-100 dark:border-slate-800">{r.map((c, j) => <td key={j} className={j === 0 ? 'px-1 py-1 sm:px-2 [overflow-wrap:anywhere]' : 'px-1 py-1 sm:px-2'}>{c}</td>)}</tr>)}</tbody>
            </table>
          </div>
          {rows.length > FIRST_ROWS && (
            <button type="button" className="btn-secondary mt-2" aria-controls={`${id}-table`} aria-expanded={all} onClick={() => setAll(!all)}>
              {all ? `Show the first ${FIRST_ROWS} rows` : `Show all ${rows.length} rows`}
            </button>
          )}
        </div>
      </div>
    </section>
  );
}

/** The note under a weekly chart when it draws fewer weeks than the table lists; undefined otherwise. */
const weeksNote = (weeks: number): string | undefined =>
  weeks > WEEKS_CHARTED ? `The chart shows the last ${WEEKS_CHARTED} weeks; the table has all ${weeks}.` : undefined;

const bars = (data: object[], x: string, y: string) => (
  <ResponsiveContainer width="100%" height="100%">
    <BarChart data={data}><CartesianGrid strokeDasharray="3 3" /><XAxis dataKey={x} tick={{ fontSize: 11 }} /><YAxis allowDecimals={false} /><Tooltip /><Bar dataKey={y} fill={COLOUR} /></BarChart>
  </ResponsiveContainer>
);
/** A course name cut to what fits beside its bar ('…' when cut); the table under the chart has it whole. */
const COURSE_LABEL_CHARS = 22;
const courseLabel = (title: string) => (title.length > COURSE_LABEL_CHARS ? `${title.slice(0, COURSE_LABEL_CHARS - 1).trimEnd()}…` : title);
/** Height in px of a horizontal chart of `n` bars: 24 px a bar, at least the other charts' 256. */
const courseChartHeight = (n: number) => Math.max(256, 24 * n + 40);

/** A course's name beside its bar, on one line (recharts would wrap it into the 24 px of its bar). */
function CourseTick({ x, y, payload }: { x?: number; y?: number; payload?: { value: string } }) {
  return <text x={x} y={y} dy={4} textAnchor="end" fontSize={11} fill="currentColor" className="recharts-cartesian-axis-tick-value">{courseLabel(payload?.value ?? '')}</text>;
}

/**
 * Horizontal bars, one per category (`key`: a course's title, a status's label, a department), each with its name
 * on the left (every bar labelled: interval 0; upright bars named only every other one on a phone).
 */
const courseBars = (data: object[], children: ReactNode, key = 'title') => (
  <ResponsiveContainer width="100%" height="100%">
    <BarChart data={data} layout="vertical" margin={{ left: 0, right: 8 }}><CartesianGrid strokeDasharray="3 3" />
      <XAxis type="number" allowDecimals={false} tick={{ fontSize: 11 }} />
      <YAxis type="category" dataKey={key} interval={0} width={140} tick={<CourseTick />} /><Tooltip />
      {children}</BarChart>
  </ResponsiveContainer>
);
/** One count per category as horizontal bars (statuses, departments), every bar named. */
const categoryBars = (data: object[], key: string, y: string, name: string) => courseBars(data, <Bar dataKey={y} name={name} fill={COLOUR} />, key);
/** Eligible / not eligible / unknown per course, stacked (issue #18). */
const stacked = (data: object[]) => courseBars(data, [
  <Bar key="e" dataKey="eligible" name="Eligible" stackId="e" fill={COLOUR} />, <Bar key="n" dataKey="notEligible" name="Not eligible" stackId="e" fill="#b91c1c" />,
  <Bar key="u" dataKey="unknown" name="No NSC results" stackId="e" fill="#94a3b8" />]);
const line = (data: object[], x: string, y: string, domain?: [number, number]) => (
  <ResponsiveContainer width="100%" height="100%">
    <LineChart data={data}><CartesianGrid strokeDasharray="3 3" /><XAxis dataKey={x} tick={{ fontSize: 11 }} /><YAxis domain={domain} /><Tooltip /><Line type="monotone" dataKey={y} stroke={COLOUR} strokeWidth={2} dot={false} /></LineChart>
  </ResponsiveContainer>
);

/** The dashboard's Reports tab (see the file comment). */
export default function ReportsPanel() {
  const [r, setR] = useState<Reports | null>(null);
  const [error, setError] = useState(false);
  const drawn = useOneAtATime(r ? 7 : 0);
  useEffect(() => { api<Reports>('/api/admin/reports').then(setR).catch(() => setError(true)); }, []);
  if (error) return <ErrorState message="Could not load the reports." />;
  if (!r) return <SkeletonRows rows={6} label="Loading reports" />;
  const fees = r.feesPerWeek.map((f) => ({ week: f.week, fees: Number(f.fees) }));
  return (
    <div className="space-y-4">
      {/* The tab's own heading level, so its reports' h3s do not follow the page's h1 directly (WCAG 1.3.1; audit 2026-11-28). */}
      <h2 className="sr-only">Reports</h2>
      <p className="text-lg">Fees collected: <strong>{formatMoney(r.feesCollected, 'USD')}</strong></p>
      <ChartBlock id="rep-status" title="Applications by status" draw={drawn > 0} chart={() => categoryBars(r.byStatus, 'label', 'count', 'Applications')} head={['Status', 'Applications']} rows={r.byStatus.map((s) => [s.label, s.count])} />
      <ChartBlock id="rep-course" title="Applications by course" draw={drawn > 1} wide chartHeight={courseChartHeight(Math.min(r.byCourse.length, 15))}
        chart={() => courseBars(r.byCourse.slice(0, 15), <Bar dataKey="count" name="Applications" fill={COLOUR} />)} head={['Course', 'Department', 'Applications']} rows={r.byCourse.map((c) => [c.title, c.department, c.count])} />
      <ChartBlock id="rep-eligible" title="Eligibility by course" draw={drawn > 2} wide chartHeight={courseChartHeight(Math.min(r.byCourse.length, 15))} chart={() => stacked(r.byCourse.slice(0, 15))}
        head={['Course', 'Eligible', 'Not eligible', 'No NSC results']} rows={r.byCourse.map((c) => [c.title, c.eligible, c.notEligible, c.unknown])} />
      <ChartBlock id="rep-dept" title="Applications by department" draw={drawn > 3} chart={() => categoryBars(r.byDepartment, 'department', 'count', 'Applications')} head={['Department', 'Applications']} rows={r.byDepartment.map((d) => [d.department, d.count])} />
      <ChartBlock id="rep-week" title="Applications per week" draw={drawn > 4} chart={() => line(r.perWeek.slice(-WEEKS_CHARTED), 'week', 'count')} note={weeksNote(r.perWeek.length)}
        head={['Week of', 'Applications']} rows={r.perWeek.map((w) => [formatStaffDate(w.week), w.count])} />
      <ChartBlock id="rep-rate" title="Acceptance rate over time (%)" draw={drawn > 5} chart={() => line(r.acceptanceOverTime.slice(-WEEKS_CHARTED), 'week', 'rate', [0, 100])} note={weeksNote(r.acceptanceOverTime.length)}
        head={['Week of', 'Accepted', 'Applications', 'Rate']} rows={r.acceptanceOverTime.map((w) => [formatStaffDate(w.week), w.accepted, w.total, `${w.rate}%`])} />
      <ChartBlock id="rep-fees" title="Fees collected per week" draw={drawn > 6} chart={() => bars(fees.slice(-WEEKS_CHARTED), 'week', 'fees')} note={weeksNote(fees.length)}
        head={['Week of', 'Fees']} rows={r.feesPerWeek.map((f) => [formatStaffDate(f.week), formatMoney(f.fees, 'USD')])} />
    </div>
  );
}
