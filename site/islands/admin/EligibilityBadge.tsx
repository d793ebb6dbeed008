/**
 * Whether an application meets its course's structured requirements (issue #18): 'Yes' (green), 'No' (red, the
 * reasons in a title and for screen readers), or 'No NSC results' when the applicant gave none.
 */
import { subjectName } from '#contracts/nsc.ts';

export function EligibilityBadge({ eligible, reasons = [] }: { eligible: boolean | null | undefined; reasons?: string[] }) {
  if (eligible == null) return <span className="text-xs muted">No NSC results</span>;
  if (eligible) return <span className="inline-block rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-900 dark:bg-green-900 dark:text-green-50">Yes</span>;
  return (
    <span className="inline-block rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900 dark:bg-red-900 dark:text-red-50" title={reasons.join('; ')}>
      No<span className="sr-only">: {reasons.join('; ')}</span>
    </span>
  );
}

/** NSC results as a compact list, 'Other' subjects under their own name,  */
export function NscResultsList({ results }: { results: { subject: string; percent: number; name?: string }[] }) {
  if (results.length === 0) return <p className="text-sm muted">None given</p>;
  return (
    <ul className="grid grid-cols-1 gap-x-4 text-sm sm:grid-cols-2">
      {results.map((r) => <li key={r.subject + (r.name ?? '')}>{subjectName(r)}: {r.percent} %</li>)}
    </ul>
  );
}
