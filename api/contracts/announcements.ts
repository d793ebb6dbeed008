/**
 * Announcement contracts (spec §3 Announcement, §5 Announcement form, §7 calls). Imports only zod; written with
 * `zod/mini`: the admin announcement form validates with them.
 */
import * as z from 'zod/mini';
import { httpImageUrl } from './common.ts';
import { expectedUpdatedAt } from './expected-version.ts';

/**
 * Create/edit body (spec §5): title ≥ 3, content ≥ 10, imageUrl a valid URL or empty/null (blank → null),
 * active default true; sendEmail (e-mail every student) and sendNotification (portal notification) default false.
 * sendEmail with active false is refused with INACTIVE_EMAIL_MESSAGE on sendEmail.
 * createdBy is never read from the body: the server takes it from the session.
 */
const AnnouncementFields = z.object({
  /** Headline shown on the home and About pages. */
  title: z.string({ error: 'Title must be at least 3 characters.' })
    .check(z.trim(), z.minLength(3, 'Title must be at least 3 characters.'), z.maxLength(200, 'Title must be at most 200 characters.')),
  /** Body text; line breaks are kept. */
  content: z.string({ error: 'Content must be at least 10 characters.' })
    .check(z.trim(), z.minLength(10, 'Content must be at least 10 characters.'), z.maxLength(10000, 'Content must be at most 10000 characters.')),
  /** Optional http(s) image URL; blank is stored as null. */
  imageUrl: httpImageUrl(),
  /** Inactive announcements leave the public site. */
  active: z._default(z.boolean(), true),
  /** E-mail every student through the durable queue. */
  sendEmail: z._default(z.boolean(), false),
  /** Create a portal notification for every student. */
  sendNotification: z._default(z.boolean(), false),
});

/**
 * Field message (on sendEmail) when an inactive announcement is to be e-mailed: students would be sent a draft the
 * public site does not show (audit finding, HIGH). The API refuses the whole request (nothing is saved).
 */
export const INACTIVE_EMAIL_MESSAGE = 'An inactive announcement cannot be e-mailed. Tick Active to publish it, or untick Send e-mail to save it as a draft.';

/** Field message (on sendNotification) for a portal notification of an inactive announcement: its title would reach every student (senior review). */
export const INACTIVE_NOTIFICATION_MESSAGE = 'An inactive announcement cannot be sent as a notification. Tick Active to publish it, or untick Send a portal notification to save it as a draft.';

const noMailWhenInactive = (v: { active?: boolean; sendEmail: boolean; sendNotification: boolean }, ctx: z.core.$RefinementCtx) => {
  if (v.active === undefined) return;
  if (v.sendEmail && !v.active) ctx.addIssue({ code: 'custom', path: ['sendEmail'], message: INACTIVE_EMAIL_MESSAGE });
  if (v.sendNotification && !v.active) ctx.addIssue({ code: 'custom', path: ['sendNotification'], message: INACTIVE_NOTIFICATION_MESSAGE });
};

export const AnnouncementInputSchema = AnnouncementFields.check(z.superRefine(noMailWhenInactive));
export type AnnouncementInput = z.input<typeof AnnouncementInputSchema>;

export const AnnouncementSchema = z.object({
  id: z.number(),
  title: z.string(),
  content: z.string(),
  imageUrl: z.nullable(z.string()),
  active: z.boolean(),
  createdBy: z.nullable(z.number()),
  createdAt: z.nullable(z.string()),
  updatedAt: z.nullable(z.string()),
});
export type Announcement = z.infer<typeof AnnouncementSchema>;

/** How many announcements the home and About pages show (spec §2): their build and the About page's refresh ask for this many. */
export const ANNOUNCEMENTS_SHOWN = 3;
/** The most announcements GET /api/announcements?limit= may ask for. */
export const MAX_ANNOUNCEMENTS_LIMIT = 50;
const LIMIT_MESSAGE = `limit must be a whole number from 1 to ${MAX_ANNOUNCEMENTS_LIMIT}`;

/**
 * GET /api/announcements query: `limit` (optional, 1–MAX_ANNOUNCEMENTS_LIMIT) = only the newest that many active
 * announcements; without it, all of them (spec §7). Anything else is a 400 LIMIT_MESSAGE.
 */
export const AnnouncementListQuerySchema = z.object({
  limit: z.optional(z.coerce.number({ error: LIMIT_MESSAGE }).check(z.int(LIMIT_MESSAGE), z.gte(1, LIMIT_MESSAGE), z.lte(MAX_ANNOUNCEMENTS_LIMIT, LIMIT_MESSAGE))),
});

/** 409 message of an edit whose `expectedUpdatedAt` is no longer the announcement's `updatedAt` (lost-update check). */
export const ANNOUNCEMENT_EDIT_CONFLICT = 'Someone else changed this announcement since you opened it. Reload to see their changes.';

/**
 * Admin edit (PUT /api/announcements/:id): the create fields plus `expectedUpdatedAt`, the `updatedAt` of the
 * version the form (or the list's Activate/Deactivate) was opened on (ISO 8601 with offset, see expectedUpdatedAt()). Optional for API
 * compatibility; when given, the save is refused with 409 ANNOUNCEMENT_EDIT_CONFLICT if the announcement changed
 * since (compared at millisecond precision).
 * `active` left out keeps the announcement's own flag (it has no default here: an edit that did not mention it
 * published a draft and notified every student, security audit). The e-mail and notification rule is then checked
 * against the saved flag (announcements.service.ts editAnnouncement).
 * Built in a pure function call, so that the browser, which never edits with it, drops it and zod's ISO date-time
 * format (issue #17).
 */
export const AnnouncementUpdateSchema = /*#__PURE__*/ (() => z.extend(AnnouncementFields, {
  /** Inactive announcements leave the public site; omitted = unchanged. */
  active: z.optional(z.boolean()),
  /** updatedAt of the version being edited; omitted = overwrite without a check. */
  expectedUpdatedAt: expectedUpdatedAt(),
}).check(z.superRefine(noMailWhenInactive)))();
export type AnnouncementUpdate = z.input<typeof AnnouncementUpdateSchema>;

/** GET /api/admin/announcements/recipients answer: how many students an announcement e-mail would be queued for now. */
export interface AnnouncementRecipients { students: number }
