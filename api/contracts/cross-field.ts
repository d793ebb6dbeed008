/**
 * Object-level checks that run even while other fields fail (issue #14 point 3). A plain zod refinement on an
 * object is skipped as long as any field has an issue, so 'Passwords do not match' used to appear only once
 * every other field was valid; with `when` it appears with the other messages on the first submit.
 * Written with `zod/mini` for the islands' budget.
 */
import { z } from 'zod/mini';
import { yearOrderProblem } from './application-steps.ts';

const isObject = (p: { value: unknown }) => p.value != null && typeof p.value === 'object';

/**
 * An object check `fn(value, ctx)` that runs whenever the value is an object, whatever its fields' state.
 * `fn` sees raw field values (possibly missing or of the wrong type) and must tolerate them.
 */
export function crossField<T>(fn: (v: T, ctx: z.core.$RefinementCtx<T>) => void): z.core.$ZodCheck<T> {
  return z.superRefine<T>(fn, { when: isObject });
}

/** 'Passwords do not match' on confirmPassword (spec §5) when both are strings and differ. */
export const passwordsMatch = <T extends { password: string; confirmPassword: string }>(): z.core.$ZodCheck<T> => crossField<T>((v, ctx) => {
  if (typeof v.password === 'string' && typeof v.confirmPassword === 'string' && v.password !== v.confirmPassword) {
    ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'Passwords do not match', input: v.confirmPassword });
  }
});

/** 'End year cannot be before the start year' on `to` of an institution {from, to} (DESIGN §6 school years). */
export const yearsInOrder = <T extends { from?: string; to?: string }>(): z.core.$ZodCheck<T> => crossField<T>((v, ctx) => {
  const problem = yearOrderProblem(v.from, v.to);
  if (problem) ctx.addIssue({ code: 'custom', path: ['to'], message: problem, input: v.to });
});
