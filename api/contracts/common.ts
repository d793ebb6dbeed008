/**
 * Shared constants and the one error shape (DESIGN §4), used by the API and the islands.
 * Imports only zod; written with `zod/mini` (issue #17: the admin forms validate with the schemas built on these).
 */
import * as z from 'zod/mini';

import { APPLICATION_STATUSES } from './statuses.ts';
import { MAX_PAGE_SIZE } from './paging.ts';
export { APPLICATION_STATUSES, STATUS_PROGRESS, progressFor, STATUS_COLOUR, statusLabel, COURSE_LEVELS, DEPARTMENTS } from './statuses.ts';
export type { ApplicationStatus } from './statuses.ts';
// Zod-free, so islands can import them without zod (application-steps.ts).
export { FILTER_GROUPS, COUNTRY_OPTIONS, COUNTRY_CODES, APPLICATION_FEE, MAX_UPLOAD_BYTES } from './application-steps.ts';
export const ApplicationStatusSchema = /*#__PURE__*/ z.enum(APPLICATION_STATUSES);
// Zod-free paging (paging.ts), so the islands' Pager imports it without zod.
export { MAX_PAGE_SIZE, pageCount, pageInfo, pageRange } from './paging.ts';
export type { PageInfo, PageQuery } from './paging.ts';

/** The one error body (DESIGN §4). */
export const ErrorBodySchema = /*#__PURE__*/ z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.optional(z.record(z.string(), z.string())),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Whole-number id from a path parameter, e.g. "/courses/12". */
/** A record id in a path: decimal digits only (not '0x10', '1e1' or '0b11', which Number() also reads), 1..2147483647. */
export const IdSchema = /*#__PURE__*/ z.pipe(
  z.pipe(z.string().check(z.regex(/^[1-9]\d{0,9}$/, 'Invalid id')), z.transform(Number)),
  z.number().check(z.int(), z.positive(), z.lte(2147483647)),
);
export const IdParamSchema = /*#__PURE__*/ z.object({ id: IdSchema });

/**
 * An http(s) address by zod's URL format (`z.url`, protocol http or https; the WHATWG URL parser reads it), anything
 * else `message`; the value comes back trimmed, as zod gives it. The library's check, not one of our own: it costs the
 * applicants' shared zod chunk about 0.5 KB (issue #17), and validation is a library's job (team rule).
 */
export const httpUrl = (message: string): z.ZodMiniURL => z.url({ protocol: /^https?$/, error: message });

/**
 * An optional image address: http(s) only — never `javascript:`, `data:` or any other scheme (ASVS 5.0 V1.2.2);
 * blank or null is stored as null. Used by course and announcement forms.
 */
export const httpImageUrl = (): z.ZodMiniPipe<
  z.ZodMiniOptional<z.ZodMiniUnion<readonly [z.ZodMiniLiteral<''>, z.ZodMiniNull, z.ZodMiniPipe<z.ZodMiniString<string>, z.ZodMiniUnion<readonly [z.ZodMiniLiteral<''>, z.ZodMiniString<string>]>>]>>,
  z.ZodMiniTransform<string | null, string | null | undefined>
> => z.pipe(
  z.optional(z.union([
    z.literal(''), z.null(),
    z.pipe(
      z.string().check(z.trim(), z.maxLength(2048, 'Please enter a valid URL')),
      z.union([z.literal(''), httpUrl('Please enter a valid URL')]),
    ),
  ])),
  z.transform((v) => (v ? v : null)),
);

/** A string schema that trims before its checks (spec §5: surrounding spaces never fail a field). */
export const trimmed = (): z.ZodMiniString<string> => z.string().check(z.trim());

/** The query fields of a paged list: `page`, `pageSize`. */
export type PageQueryShape = { page: z.ZodMiniDefault<z.ZodMiniOptional<z.ZodMiniNumber<unknown>>>; pageSize: z.ZodMiniDefault<z.ZodMiniOptional<z.ZodMiniNumber<unknown>>> };

/**
 * The query of a paged list (volume audit: no silent cap): `page` 1-based (1–100 000, default 1) and `pageSize`
 * (1–`maxSize`, default `defaultSize` rows). A page past the last is answered as the last (paging.ts). Extend it for
 * filters (`z.extend(pageQuerySchema(25), { q: … })`; from classic zod `z.object({ ...pageQuerySchema(25).shape, q: … })`).
 */
export const pageQuerySchema = (defaultSize: number, maxSize: number = MAX_PAGE_SIZE): z.ZodMiniObject<PageQueryShape> => z.object({
  page: z._default(z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(100000))), 1),
  pageSize: z._default(z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(maxSize))), defaultSize),
});
