/**
 * Reports tab (issue #6): applications by status, by course and department, per week, acceptance rate over
 * time, fees collected — recharts charts, each with a text table beside it (the accessible version; the chart
 * itself is aria-hidden). Loaded lazily so the dashboard's first load stays small.
 */
import { formatMoney } from '../../lib/format.ts';
import { useEffect, useState, type ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Reports } from '#contracts/reports.ts';
import { api } from '../../lib/api-client.ts';
import { ErrorState } from '../ui/ErrorState.tsx';
import { SkeletonRows } from '../ui/SkeletonRows.tsx';

const COLOUR = '#11684a';

function ChartBlock({ id, title, chart, head, rows }: { id: string; title: string; chart: ReactNode; head: string[]; rows: (string | number)[][] }) {
  return (
    <section aria-labelledby={id} className="card p-4">
      <h3 id={id} className="mb-3 font-semibold">{title}</h3>
      <div className="grid gap-4 lg:grid-cols-[3fr_2fr]">
        <div aria-hidden="true" className="h-64 min-w-0">{chart}</div>
        <div className="max-h-64 overflow-auto" tabIndex={0} role="region" aria-label={`${title} (table)`}>
          <table className="w-full text-sm">
            <caption className="sr-only">{title}</caption>
            <thead><tr>{head.map((h) => <th key={h} scope="col" className="px-2 py-1 text-left">{h}</th>)}</tr></thead>
            <tbody>{rows.length === 0 ? <tr><td colSpan={head.length} className="px-2 py-1 muted">No data yet</td></tr>
              : rows.map((r, i) => <tr key={i} className="border-t border-slate-100 dark:border-slate-800">{r.map((c, j) => <td key={j} className="px-2 py-1">{c}</td>)}</tr>)}</tbody>
          </table>
        </div>
      </div>
    </section>
  );
}

const bars = (data: object[], x: string, y: string) => (
  <ResponsiveContainer width="100%" height="100%">
    <BarChart data={data}><CartesianGrid strokeDasharray="3 3" /><XAxis dataKey={x} tick={{ fontSize: 11 }} /><YAxis allowDecimals={false} /><Tooltip /><Bar dataKey={y} fill={COLOUR} /></BarChart>
  </ResponsiveContainer>
);
/** Eligible / not eligible / unknown per course, stacked (issue #18). */
const stacked = (data: object[]) => (
  <ResponsiveContainer width="100%" height="100%">
    <BarChart data={data}><CartesianGrid strokeDasharray="3 3" /><XAxis dataKey="title" tick={{ fontSize: 11 }} /><YAxis allowDecimals={false} /><Tooltip />
      <Bar dataKey="eligible" name="Eligible" stackId="e" fill={COLOUR} /><Bar dataKey="notEligible" name="Not eligible" stackId="e" fill="#b91c1c" /><Bar dataKey="unknown" name="No NSC results" stackId="e" fill="#94a3b8" /></BarChart>
  </ResponsiveContainer>
);
const line = (data: object[], x: string, y: string, domain?: [number, number]) => (
  <ResponsiveContainer width="100%" height="100%">
    <LineChart data={data}><CartesianGrid strokeDasharray="3 3" /><XAxis dataKey={x} tick={{ fontSize: 11 }} /><YAxis domain={domain} /><Tooltip /><Line type="monotone" dataKey={y} stroke={COLOUR} strokeWidth={2} dot={false} /></LineChart>
  </ResponsiveContainer>
);

/** The dashboard's Reports tab (see the file comment). */
export default function ReportsPanel() {
  const [r, setR] = useState<Reports | null>(null);
  const [error, setError] = useState(false);
  useEffect(() => { api<Reports>('/api/admin/reports').then(setR).catch(() => setError(true)); }, []);
  if (error) return <ErrorState message="Could not load the reports." />;
  if (!r) return <SkeletonRows rows={6} label="Loading reports" />;
  const fees = r.feesPerWeek.map((f) => ({ week: f.week, fees: Number(f.fees) }));
  return (
    <div className="space-y-4">
      <p className="text-lg">Fees collected: <strong>{formatMoney(r.feesCollected, 'USD')}</strong></p>
      <ChartBlock id="rep-status" title="Applications by status" chart={bars(r.byStatus, 'label', 'count')} head={['Status', 'Applications']} rows={r.byStatus.map((s) => [s.label, s.count])} />
      <ChartBlock id="rep-course" title="Applications by course" chart={bars(r.byCourse.slice(0, 15), 'title', 'count')} head={['Course', 'Department', 'Applications']} rows={r.byCourse.map((c) => [c.title, c.department, c.count])} />
      <ChartBlock id="rep-eligible" title="Eligibility by course" chart={stacked(r.byCourse.slice(0, 15))}
        head={['Course', 'Eligible', 'Not eligible', 'No NSC results']} rows={r.byCourse.map((c) => [c.title, c.eligible, c.notEligible, c.unknown])} />
      <ChartBlock id="rep-dept" title="Applications by department" chart={bars(r.byDepartment, 'department', 'count')} head={['Department', 'Applications']} rows={r.byDepartment.map((d) => [d.department, d.count])} />
      <ChartBlock id="rep-week" title="Applications per week" chart={line(r.perWeek, 'week', 'count')} head={['Week of', 'Applications']} rows={r.perWeek.map((w) => [w.week, w.count])} />
      <ChartBlock id="rep-rate" title="Acceptance rate over time (%)" chart={line(r.acceptanceOverTime, 'week', 'rate', [0, 100])} head={['Week of', 'Accepted', 'Applications', 'Rate']} rows={r.acceptanceOverTime.map((w) => [w.week, w.accepted, w.total, `${w.rate}%`])} />
      <ChartBlock id="rep-fees" title="Fees collected per week" chart={bars(fees, 'week', 'fees')} head={['Week of', 'Fees']} rows={r.feesPerWeek.map((f) => [f.week, formatMoney(f.fees, 'USD')])} />
    </div>
  );
}
