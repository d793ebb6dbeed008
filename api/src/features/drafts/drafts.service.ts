/**
 * Wizard drafts (issue #5 "Drafts survive"): the browser keeps a copy in localStorage for an instant resume
 * and PUTs it here (debounced) so it also survives a closed tab, another device or a dropped connection;
 * the newer of the two wins on load. Card number and CVC are never stored (DESIGN §4 Payment): they are
 * removed here whatever the client sends.
 */
import type { Db } from '../../db/client.ts';
import { deleteDraft, findDraft, upsertDraft, type DraftRow } from './drafts.repo.ts';

/** `step` 0..4, `data` the wizard state, `updatedAt` ISO 8601. */
export interface DraftView { key: string; step: number; data: Record<string, unknown>; updatedAt: string }

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
  return { key: r.key, step: r.step, data: r.data as Record<string, unknown>, updatedAt: r.updatedAt instanceof Date ? r.updatedAt.toISOString() : String(r.updatedAt) };
}

/** The caller's draft under `key` (issue #5 "Drafts survive"), or null when there is none. */
export async function getDraft(db: Db, userId: number, key: string): Promise<DraftView | null> {
  const r = await findDraft(db, userId, key);
  return r ? toView(r) : null;
}

/** Stores the caller's draft under `key` at wizard `step`, with card number and CVC removed (DESIGN §4 Payment). */
export async function saveDraft(db: Db, userId: number, key: string, step: number, data: Record<string, unknown>): Promise<DraftView> {
  return toView(await upsertDraft(db, userId, key, step, stripSecrets(data)));
}

/** Deletes the caller's draft under `key` (after submitting, or "Start over"). */
export function discardDraft(db: Db, userId: number, key: string): Promise<void> {
  return deleteDraft(db, userId, key);
}
