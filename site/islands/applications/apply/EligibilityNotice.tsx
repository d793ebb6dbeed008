/**
 * Before Submit (issue #18 point 4): whether the NSC results entered meet the chosen course's structured entry
 * requirements, computed in the browser with the API's own rules (checkEligibility). A warning, never a block:
 * the college may still admit on other grounds. Nothing shows when no results were given or the course has none.
 */
import { checkEligibility, computeAps } from '#contracts/nsc.ts';
import type { CourseOption } from './form.ts';
import type { NscRow } from '../../ui/NscResultsFields.tsx';

export function EligibilityNotice({ course, results }: { course: CourseOption | null; results: NscRow[] }) {
  const given = results.filter((r) => r.subject && String(r.percent).trim() !== '').map((r) => ({ subject: r.subject, percent: Number(r.percent), name: r.name }));
  if (!course || given.length === 0) return null;
  const req = { minimumAps: course.minimumAps ?? 0, subjectRequirements: course.subjectRequirements ?? [] };
  if (req.minimumAps === 0 && req.subjectRequirements.length === 0) return null;
  const { eligible, reasons } = checkEligibility(given, req);
  if (eligible) {
    return <p className="rounded-md border border-green-700 bg-green-50 p-3 text-sm text-green-950 dark:bg-green-950 dark:text-green-50" data-testid="eligibility-notice">
      Your APS is {computeAps(given)}. Your NSC results meet the entry requirements for {course.title}.</p>;
  }
  return (
    <div role="note" className="rounded-md border border-amber-600 bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-50" data-testid="eligibility-notice">
      <p className="font-semibold">Your NSC results do not meet the entry requirements for {course.title} yet</p>
      <ul className="mt-1 list-disc pl-6">{reasons.map((r) => <li key={r}>{r}</li>)}</ul>
      <p className="mt-1">You can still submit: the admissions office looks at every application.</p>
    </div>
  );
}
