/**
 * NSC results and eligibility contracts (issue #18 points 1, 3, 4), on `zod/mini` because the registration,
 * application and profile islands validate with them in the browser. The rules themselves are in nsc.ts.
 * - `NscResultsSchema`: up to 9 `{subject, percent, name?}`; percent a whole number 0–100; 'Other' needs a name;
 *   each subject once.
 * - `SubjectRequirementsSchema`: a course's `[{subject, minimumPercent}]`, each subject once.
 * - `EligibilityRequestSchema`: POST /api/eligibility `{subjects, courseId?}`.
 */
import * as z from 'zod/mini';
import { APS_MAX, NSC_MAX_SUBJECTS, NSC_SUBJECTS, REQUIRABLE_SUBJECTS, subjectName } from './nsc.ts';

const PERCENT = 'Percentage must be a whole number from 0 to 100';
/** A whole number 0–100, typed as a number or digits ('' is refused, not read as 0). */
const percent = (message = PERCENT) => z.pipe(
  z.union([z.number(), z.string().check(z.trim(), z.regex(/^\d{1,3}$/, message))], { error: message }),
  z.pipe(z.transform((v: number | string) => Number(v)), z.number().check(z.refine(Number.isInteger, message), z.gte(0, message), z.lte(100, message))),
);
const unique = <T>(key: (v: T) => string, message: string) => z.refine<T[]>((list) => new Set(list.map((v) => key(v).toLowerCase())).size === list.length, message);

export const NscResultSchema = z.object({
  subject: z.enum(NSC_SUBJECTS, { error: 'Please select a subject' }),
  percent: percent(),
  name: z._default(z.optional(z.string().check(z.trim(), z.maxLength(60, 'Subject name is too long'))), ''),
}).check(z.refine((r) => r.subject !== 'Other' || r.name.length >= 2, { path: ['name'], message: 'Please name the subject' }));
export type NscResultInput = z.input<typeof NscResultSchema>;

export const NscResultsSchema = z.array(NscResultSchema).check(
  z.maxLength(NSC_MAX_SUBJECTS, `At most ${NSC_MAX_SUBJECTS} subjects`),
  unique((r: z.output<typeof NscResultSchema>) => subjectName(r), 'Each subject can be listed only once'),
);

export const SubjectRequirementSchema = z.object({
  subject: z.enum(REQUIRABLE_SUBJECTS as [string, ...string[]], { error: 'Please select a subject' }),
  minimumPercent: percent('Minimum percentage must be a whole number from 0 to 100'),
});
export const SubjectRequirementsSchema = z.array(SubjectRequirementSchema).check(
  z.maxLength(10, 'At most 10 subject requirements'),
  unique((r: z.output<typeof SubjectRequirementSchema>) => r.subject, 'Each subject can be required only once'),
);

/** 0–42 (six subjects at level 7). */
export const MinimumApsSchema = z.coerce.number({ error: `Minimum APS must be a whole number from 0 to ${APS_MAX}` })
  .check(z.int({ error: `Minimum APS must be a whole number from 0 to ${APS_MAX}` }), z.gte(0, `Minimum APS must be a whole number from 0 to ${APS_MAX}`), z.lte(APS_MAX, `Minimum APS must be a whole number from 0 to ${APS_MAX}`));

/** POST /api/eligibility body: at least one result; `courseId` narrows the answer to one course. */
export const EligibilityRequestSchema = z.object({
  subjects: z.array(NscResultSchema, { error: 'Add at least one subject' }).check(
    z.minLength(1, 'Add at least one subject'),
    z.maxLength(NSC_MAX_SUBJECTS, `At most ${NSC_MAX_SUBJECTS} subjects`),
    unique((r: z.output<typeof NscResultSchema>) => subjectName(r), 'Each subject can be listed only once'),
  ),
  courseId: z.optional(z.coerce.number().check(z.int(), z.positive(), z.lte(2147483647))),
});
export type EligibilityRequest = z.input<typeof EligibilityRequestSchema>;

/** POST /api/eligibility answer: the APS and, per active course, eligible or the reasons why not. */
export interface EligibilityResponse { aps: number; courses: { id: number; eligible: boolean; reasons: string[] }[] }

/** PUT /api/profile/nsc-results body. */
export const NscResultsUpdateSchema = z.object({ nscResults: NscResultsSchema });
