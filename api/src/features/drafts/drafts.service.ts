/**
 * Wizard drafts (issue #5 "Drafts survive"): the browser keeps a copy in localStorage for an instant resume
 * and PUTs it here (debounced) so it also survives a closed tab, another device or a dropped connection.
 * Each save names the revision it was based on, and a save based on an older one is refused with the stored draft
 * (two tabs or devices: the wizard asks which to keep). Card number and CVC are never stored (DESIGN §4 Payment): they are
 * removed here whatever the client sends.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Db } from '../../db/client.ts';
import { DRAFT_CHANGED } from '#contracts/applications.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { deleteDraft, draftRoom, findDraft, upsertDraft, type DraftRow } from './drafts.repo.ts';

/** `step` 0..4, `data` the wizard state, `updatedAt` ISO 8601, `revision` what the next save sends back. */
export interface DraftView { key: string; step: number; data: Record<string, unknown>; updatedAt: string; revision: number }

/** A save: the stored draft, or the refusal with the draft as it is now (the client offers both versions). */
export type DraftSaveResult = { draft: DraftView } | { conflict: { message: string; current: DraftView } };

/**
 * Drafts one account may keep (security audit 2026-11-28: one account stored 30 drafts under invented course keys).
 * A draft is one application being prepared, one per course; nobody prepares 20 at once (the college has 14 courses,
 * each also on its own page), and submitting or "Start over" deletes the draft.
 */
export const MAX_DRAFTS_PER_USER = 20;

const SECRET_KEYS = new Set(['cardNumber', 'cardCvc']);

/** Deep copy of `value` without any cardNumber/cardCvc keys. */
export function stripSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripSecrets);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => !SECRET_KEYS.has(k)).map(([k, v]) => [k, stripSecrets(v)]));
  }
  return value;
}

function toView(r: DraftRow): DraftView {
  return { key: r.key, step: r.step, data: r.data as Record<string, unknown>, updatedAt: r.updatedAt instanceof Date ? r.updatedAt.toISOString() : String(r.updatedAt), revision: r.revision };
}

/** The caller's draft under `key` (issue #5 "Drafts survive"), or null when there is none. */
export async function getDraft(db: Db, userId: number, key: string): Promise<DraftView | null> {
  const r = await findDraft(db, userId, key);
  return r ? toView(r) : null;
}

/**
 * True when `stored` is what a save of (`step`, `clean`) from `baseRevision` wrote: revision base + 1 (1 for a save
 * without a base) and the same step and content. Object key order is ignored (jsonb keeps its own order).
 */
function isThisSave(stored: DraftRow, step: number, clean: unknown, baseRevision: number | undefined): boolean {
  return stored.revision === (baseRevision ?? 0) + 1 && stored.step === step && isDeepStrictEqual(stored.data, clean);
}

/**
 * Stores the caller's draft under `key` at wizard `step`, with card number and CVC removed (DESIGN §4 Payment), if
 * the stored draft is still at `baseRevision` (undefined: the client has seen none) and the save is allowed
 * (assertDraftAllowed's rules: 404 'Course Not Found', 409 `draft_limit`, thrown). Otherwise nothing is stored and,
 * unless refused, the answer is the conflict with the stored draft: another tab or device saved since (README
 * "Drafts from two tabs or devices"). The rules, the revision check and the write are one statement (upsertDraft
 * with limits), so an autosave is one round trip; only a save that wrote nothing asks why (assertDraftAllowed, then
 * the stored draft).
 * Idempotent: a save retried after its reply was lost (node killed, connection cut) finds the draft it wrote itself,
 * at `baseRevision` + 1 with the same step and content, and gets that draft back (200, nothing written again)
 * instead of a conflict; a different draft at that revision is still a conflict.
 */
export async function saveDraft(db: Db, userId: number, key: string, step: number, data: Record<string, unknown>, baseRevision?: number): Promise<DraftSaveResult> {
  const clean = stripSecrets(data);
  const limits = { courseId: courseIdOf(key), maxDrafts: MAX_DRAFTS_PER_USER };
  // A draft deleted between the refused write and the read (a submit or "Start over" elsewhere): write again, it is new now.
  for (let attempt = 0; attempt < 3; attempt++) {
    const saved = await upsertDraft(db, userId, key, step, clean, baseRevision, limits);
    if (saved) return { draft: toView(saved) };
    await assertDraftAllowed(db, userId, key);
    const current = await findDraft(db, userId, key);
    if (current && isThisSave(current, step, clean, baseRevision)) return { draft: toView(current) };
    if (current) return { conflict: { message: DRAFT_CHANGED, current: toView(current) } };
  }
  throw new Error(`draft ${key} of user ${userId} was deleted and re-created during three saves in a row`);
}

/**
 * The course id a draft key names (`course-<id>`), or undefined for another key ('general'). Throws 404 'Course Not
 * Found' (spec §8) for an id beyond PostgreSQL's integer, which no course has (DraftKeySchema's 9 digits refuse it first).
 */
function courseIdOf(key: string): number | undefined {
  const course = /^course-(\d+)$/.exec(key);
  if (!course) return undefined;
  if (!(Number(course[1]) <= 2147483647)) throw notFound('Course Not Found');
  return Number(course[1]);
}

/**
 * Throws unless `userId` may save a draft under `key`: 404 'Course Not Found' (spec §8) for `course-<id>` of no course,
 * 409 `draft_limit` when the account already keeps MAX_DRAFTS_PER_USER drafts under other keys. Saving a draft it
 * already has is always allowed. One statement (draftRoom: the course, the count and the account's own draft
 * together); saveDraft asks it only when its write was refused, to say why.
 */
export async function assertDraftAllowed(db: Db, userId: number, key: string): Promise<void> {
  const room = await draftRoom(db, userId, key, courseIdOf(key));
  if (!room.courseExists) throw notFound('Course Not Found');
  if (room.others >= MAX_DRAFTS_PER_USER && !room.mine) {
    throw new HttpError(409, 'draft_limit', `You have ${MAX_DRAFTS_PER_USER} applications in progress. Submit or start over on one of them first.`);
  }
}

/** Deletes the caller's draft under `key` (after submitting, or "Start over"). */
export function discardDraft(db: Db, userId: number, key: string): Promise<void> {
  return deleteDraft(db, userId, key);
}
