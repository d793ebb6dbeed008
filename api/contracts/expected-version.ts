/**
 * The `expectedUpdatedAt` of an edit (profile, course, announcement): the `updatedAt` of the version the form was
 * opened on, for the lost-update check the repos run in SQL (`date_trunc('milliseconds', updated_at) = $1::timestamptz`).
 * Written with `zod/mini`; the schemas that use it build it in a pure function call, so browser bundles drop it.
 */
import * as z from 'zod/mini';

/** 400 message on `expectedUpdatedAt` when it is not an ISO 8601 date and time with Z or an offset. */
export const EXPECTED_VERSION_FORMAT_MESSAGE = 'Expected version must be an ISO 8601 date and time';
/**
 * 400 message on `expectedUpdatedAt` when it is well formed but not an instant in UTC years 0001..9999: zod's ISO
 * format takes year 0000, which PostgreSQL's timestamptz input refuses (the save answered 500).
 */
export const EXPECTED_VERSION_RANGE_MESSAGE = 'Expected version must be a date and time in the years 0001 to 9999';

/** The instant of an ISO 8601 date-time as `YYYY-MM-DDTHH:mm:ss.sssZ`, or null when it is outside UTC years 0001..9999. */
function utcInstant(v: string): string | null {
  const t = Date.parse(v);
  if (Number.isNaN(t)) return null;
  const iso = new Date(t).toISOString();
  return /^\d{4}-/.test(iso) && !iso.startsWith('0000-') ? iso : null;
}

/**
 * Optional `expectedUpdatedAt` field: an ISO 8601 date-time with Z or an offset (EXPECTED_VERSION_FORMAT_MESSAGE),
 * of an instant in UTC years 0001..9999 (EXPECTED_VERSION_RANGE_MESSAGE). Parsed to the same instant in UTC with
 * milliseconds (`new Date(v).toISOString()`), so the SQL never sees an offset PostgreSQL refuses (beyond ±15:59, which
 * zod takes) nor digits past the milliseconds the check compares. Omitted = save without a check.
 */
export function expectedUpdatedAt(): z.ZodMiniOptional<z.ZodMiniPipe<z.ZodMiniISODateTime, z.ZodMiniTransform<string, string>>> {
  // A pipe, so a malformed value gets only the format message.
  return z.optional(z.pipe(z.iso.datetime({ offset: true, error: EXPECTED_VERSION_FORMAT_MESSAGE }), z.transform((v: string, ctx) => {
    const iso = utcInstant(v);
    if (iso === null) ctx.issues.push({ code: 'custom', message: EXPECTED_VERSION_RANGE_MESSAGE, input: v });
    return iso ?? v;
  })));
}
