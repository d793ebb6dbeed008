/**
 * Shared constants and the one error shape (DESIGN §4), used by the API and the islands.
 * Imports only zod.
 */
import { z } from 'zod';

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
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Whole-number id from a path parameter, e.g. "/courses/12". */
/** A record id in a path: decimal digits only (not '0x10', '1e1' or '0b11', which Number() also reads), 1..2147483647. */
export const IdSchema = /*#__PURE__*/ z.string().regex(/^[1-9]\d{0,9}$/, 'Invalid id').transform(Number).pipe(z.number().int().positive().max(2147483647));
export const IdParamSchema = /*#__PURE__*/ z.object({ id: IdSchema });

/**
 * An optional image address: http(s) only — never `javascript:`, `data:` or any other scheme (ASVS 5.0 V1.2.2);
 * blank or null is stored as null. Used by course and announcement forms.
 */
export const httpImageUrl = (): z.ZodPipe<
  z.ZodOptional<z.ZodUnion<readonly [z.ZodLiteral<''>, z.ZodNull, z.ZodPipe<z.ZodString, z.ZodUnion<readonly [z.ZodLiteral<''>, z.ZodURL]>>]>>,
  z.ZodTransform<string | null, string | null | undefined>
> => z.union([
  z.literal(''), z.null(),
  z.string().trim().max(2048, 'Please enter a valid URL').pipe(z.union([z.literal(''), z.url({ error: 'Please enter a valid URL', protocol: /^https?$/ })])),
]).optional().transform((v) => (v ? v : null));

/** A string schema that trims before its checks (spec §5: surrounding spaces never fail a field). */
export const trimmed = (): z.ZodString => z.string().trim();

/** The query fields of a paged list: `page`, `pageSize`. */
export type PageQueryShape = { page: z.ZodDefault<z.ZodOptional<z.ZodCoercedNumber<unknown>>>; pageSize: z.ZodDefault<z.ZodOptional<z.ZodCoercedNumber<unknown>>> };

/**
 * The query of a paged list (volume audit: no silent cap): `page` 1-based (1–100 000, default 1) and `pageSize`
 * (1–`maxSize`, default `defaultSize` rows). A page past the last is answered as the last (paging.ts). Extend it for
 * filters (`pageQuerySchema(25).extend({ q: … })`).
 */
export const pageQuerySchema = (defaultSize: number, maxSize: number = MAX_PAGE_SIZE): z.ZodObject<PageQueryShape> => z.object({
  page: z.coerce.number().int().min(1).max(100000).optional().default(1).describe('1-based page number'),
  pageSize: z.coerce.number().int().min(1).max(maxSize).optional().default(defaultSize).describe('rows per page'),
});
