/**
 * National Senior Certificate (NSC) rules, zod-free so the public calculator script, the islands and the API
 * share one implementation (issue #18 points 2 and 4):
 * - `NSC_SUBJECTS`: subject names an applicant picks from ("Other" with a name of their own).
 * - `apsPoints(percent)`: NSC achievement level 1–7 of a percentage 0–100.
 * - `computeAps(results)`: Admission Point Score = the best six subjects excluding Life Orientation, max 42.
 * - `checkEligibility(results, requirements)`: whether the results meet a course's `minimumAps` and
 *   `subjectRequirements`, with one reason per shortfall ("Mathematics 45 % — 50 % needed").
 * Percentages are whole numbers 0–100. Source of the bands: issue #18 point 2 (DBE achievement levels).
 */

/** NSC subjects as the Department of Basic Education names them; 'Other' lets an applicant type a name. */
export const NSC_SUBJECTS = [
  'English Home Language', 'English First Additional Language',
  'Afrikaans Home Language', 'Afrikaans First Additional Language',
  'isiNdebele Home Language', 'isiNdebele First Additional Language',
  'isiXhosa Home Language', 'isiXhosa First Additional Language',
  'isiZulu Home Language', 'isiZulu First Additional Language',
  'Sepedi Home Language', 'Sepedi First Additional Language',
  'Sesotho Home Language', 'Sesotho First Additional Language',
  'Setswana Home Language', 'Setswana First Additional Language',
  'siSwati Home Language', 'siSwati First Additional Language',
  'Tshivenda Home Language', 'Tshivenda First Additional Language',
  'Xitsonga Home Language', 'Xitsonga First Additional Language',
  'South African Sign Language Home Language',
  'Mathematics', 'Mathematical Literacy', 'Technical Mathematics', 'Life Orientation',
  'Accounting', 'Agricultural Management Practices', 'Agricultural Sciences', 'Agricultural Technology',
  'Business Studies', 'Civil Technology', 'Computer Applications Technology', 'Consumer Studies',
  'Dance Studies', 'Design', 'Dramatic Arts', 'Economics', 'Electrical Technology',
  'Engineering Graphics and Design', 'Geography', 'History', 'Hospitality Studies', 'Information Technology',
  'Life Sciences', 'Marine Sciences', 'Mechanical Technology', 'Music', 'Physical Sciences', 'Religion Studies',
  'Sport and Exercise Science', 'Technical Sciences', 'Tourism', 'Visual Arts',
  'Other',
] as const;
export type NscSubject = typeof NSC_SUBJECTS[number];

/** Subjects a course may require: every NSC subject except 'Other' and Life Orientation. */
export const REQUIRABLE_SUBJECTS = NSC_SUBJECTS.filter((s) => s !== 'Other' && s !== 'Life Orientation');

export const LIFE_ORIENTATION = 'Life Orientation';
/** At most nine subjects per applicant (seven NSC subjects plus extras). */
export const NSC_MAX_SUBJECTS = 9;
/** The APS counts this many subjects. */
export const APS_SUBJECTS = 6;
/** Six subjects at level 7. */
export const APS_MAX = 42;

/** One NSC result: `percent` 0–100; `name` is the subject's own name when `subject` is 'Other'. */
export interface NscResult { subject: string; percent: number; name?: string }
/** A course's structured entry requirement on one subject: at least `minimumPercent` (0–100). */
export interface SubjectRequirement { subject: string; minimumPercent: number }
export interface CourseRequirements { minimumAps: number; subjectRequirements: SubjectRequirement[] }
export interface Eligibility { eligible: boolean; reasons: string[] }

const LISTED_BY_LOWER_CASE = new Map(NSC_SUBJECTS.filter((s) => s !== 'Other').map((s) => [s.toLowerCase(), s as string]));

/**
 * The subject a result is for: the NSC subject, or for 'Other' the typed name (trimmed) — unless that name is a
 * listed subject in other capitals or spacing ("life orientation", "Mathematics"), which is that subject. So an
 * 'Other' Life Orientation is left out of the APS and an 'Other' Mathematics meets a Mathematics requirement
 * (issue #18: "the best six subjects excluding Life Orientation"; NSC audit, 2026-11-27), and the schema's
 * one-result-per-subject rule sees them as the listed subject.
 */
export function subjectName(r: Pick<NscResult, 'subject' | 'name'>): string {
  if (r.subject !== 'Other' || !r.name) return r.subject;
  const typed = r.name.trim();
  return LISTED_BY_LOWER_CASE.get(typed.replace(/\s+/g, ' ').toLowerCase()) ?? typed;
}

/** NSC achievement level of a percentage: 80–100 → 7, 70–79 → 6, … 30–39 → 2, 0–29 → 1. Fractions round down. */
export function apsPoints(percent: number): number {
  const p = Math.floor(Math.max(0, Math.min(100, percent)));
  if (p >= 80) return 7;
  if (p < 30) return 1;
  return Math.floor(p / 10) - 1;
}

/** Admission Point Score: points of the best six subjects, Life Orientation excluded; 0 for no results. */
export function computeAps(results: readonly NscResult[]): number {
  return results
    .filter((r) => subjectName(r) !== LIFE_ORIENTATION)
    .map((r) => apsPoints(r.percent))
    .sort((a, b) => b - a)
    .slice(0, APS_SUBJECTS)
    .reduce((sum, p) => sum + p, 0);
}

/**
 * Checks NSC results against a course's requirements. Each shortfall becomes one reason, in the order:
 * APS ("APS 24 — 28 needed"), then each required subject ("Mathematics 45 % — 50 % needed", or
 * "Mathematics not taken — 50 % needed"). No requirements → eligible with no reasons.
 */
export function checkEligibility(results: readonly NscResult[], req: CourseRequirements): Eligibility {
  const reasons: string[] = [];
  const aps = computeAps(results);
  if (req.minimumAps > 0 && aps < req.minimumAps) reasons.push(`APS ${aps} — ${req.minimumAps} needed`);
  for (const need of req.subjectRequirements) {
    const got = results.find((r) => subjectName(r) === need.subject);
    if (!got) reasons.push(`${need.subject} not taken — ${need.minimumPercent} % needed`);
    else if (got.percent < need.minimumPercent) reasons.push(`${need.subject} ${got.percent} % — ${need.minimumPercent} % needed`);
  }
  return { eligible: reasons.length === 0, reasons };
}

/** One line describing a course's structured requirements, e.g. "APS 28 · Mathematics 60 %"; '' when none. */
export function describeRequirements(req: CourseRequirements): string {
  const parts = req.minimumAps > 0 ? [`APS ${req.minimumAps}`] : [];
  for (const s of req.subjectRequirements) parts.push(`${s.subject} ${s.minimumPercent} %`);
  return parts.join(' · ');
}
