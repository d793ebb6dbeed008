/**
 * Uploads (DESIGN §4 Documents; spec §5 Step 3, §9 5 MB):
 * - storeUpload: checks the bytes' magic number (PDF, DOC = OLE/CFB, DOCX = zip with word/, JPEG, PNG;
 *   anything else → 415), writes them to the document store (local disk or S3, api/src/storage/) under the
 *   key `<random>.<ext>` — never the client's name, so a `../` name cannot reach outside the store — and
 *   records the sanitised original name for display.
 * - openUpload: the stored bytes for its owner or an admin; anyone else gets 404 (no existence leak).
 * - removeUpload: owner only, refused with 409 once an application references it (checked under a row lock).
 * - uploadsOf: the user's own uploads (student dashboard Documents tab).
 * - assertOwnedUploads / lockCitedUploads: an application may only reference uploads its applicant made that still
 *   exist; the locking variant runs inside the transaction that stores the reference.
 */
import crypto from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import type { DocumentStore, StoredObject } from '../../storage/document-store.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { badRequest, conflict, HttpError, notFound } from '../../http/errors.ts';
import { MAX_UPLOAD_BYTES } from '#contracts/common.ts';
import type { UploadView } from '#contracts/application-views.ts';
import { UPLOAD_THE_DOCUMENT } from '#contracts/applications.ts';
import { insertUploadWithinQuota } from './quota.ts';
import { deleteUploadRow, findUploadRow, findUploadRows, insertUploadRow, isAttached, isOrphanUpload, listUploadRows, lockOwnedUploadIds, lockUploadRow, orphanUploadRows, ownedUploadIds, type UploadRow } from './uploads.repo.ts';


const ALLOWED: Record<string, { ext: string; mime: string }> = {
  pdf: { ext: 'pdf', mime: 'application/pdf' },
  cfb: { ext: 'doc', mime: 'application/msword' },
  docx: { ext: 'docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  jpg: { ext: 'jpg', mime: 'image/jpeg' },
  png: { ext: 'png', mime: 'image/png' },
};

/** 415 `unsupported_media_type` with spec §5's accepted-types message (the bytes are not PDF, DOC, DOCX, JPEG or PNG). */
export const unsupportedType = (): HttpError => new HttpError(415, 'unsupported_media_type', 'Only PDF, DOC, DOCX, JPG, JPEG and PNG files are accepted');
/** 413 `payload_too_large` 'File size exceeds 5MB limit' (spec §9: MAX_UPLOAD_BYTES = 5 MB). */
export const tooLarge = (): HttpError => new HttpError(413, 'payload_too_large', 'File size exceeds 5MB limit');

/**
 * Display name: last path segment, no control or odd characters (letters, digits, dashes such as '–', space, '.', '_',
 * '(' and ')' are kept; anything else becomes '_'), at most 120 characters, and always ending in
 * the extension of the type detected from the bytes (`ext`, e.g. 'pdf'): a PDF/HTML polyglot sent as
 * `transcript.html` is stored as `transcript.pdf`, so an admin's download never opens as HTML
 * (ASVS 5.0 V5.2.2 / V5.3.x: the file's name and type agree with its content). '.jpeg' is kept for 'jpg'.
 */
export function sanitizeName(name: string, ext: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '').normalize('NFC')
    .replace(/[\u0000-\u001f\u007f]/g, '').replace(/[^\p{L}\p{N}\p{Pd} ._()]/gu, '_').replace(/^[.\s]+/, '').trim();
  const m = /^(.*?)(?:\.([\p{L}\p{N}]{1,10}))?$/u.exec(base);
  const stem = (m?.[1] ?? '').replace(/[.\s]+$/, '').slice(0, 110) || 'document';
  const given = m?.[2]?.toLowerCase();
  const same = given === ext || (ext === 'jpg' && given === 'jpeg');
  return `${stem}.${same ? given : ext}`;
}

/**
 * The client's view of an upload row (UploadView contract): id, display name, MIME type, size in bytes, ISO 8601 createdAt, SHA-256 hex or null.
 */
export function toUploadView(r: UploadRow): UploadView {
  return { id: r.id, name: r.originalName, mime: r.mime, size: r.size, createdAt: r.createdAt instanceof Date ? r.createdAt.toISOString() : String(r.createdAt), sha256: r.sha256 ?? null };
}

/**
 * Stores one file for `userId`, recording its SHA-256 (hex) as the applicant's receipt. `opts.id` names the
 * upload (a finished tus upload keeps its tus id, issue #16); otherwise a random id. `opts.withinQuota` (the
 * student's own uploads: POST /api/uploads, tus) records it only within the account's limit, checked and inserted
 * atomically (quota.ts insertUploadWithinQuota), else 409 `upload_limit` and the stored bytes are deleted again.
 * Throws 400 (no file), 413 (> 5 MB), 415 (type not allowed by its bytes).
 */
export async function storeUpload(db: Db, store: DocumentStore, userId: number, file: { buffer: Buffer; originalname: string } | undefined, opts: { id?: string; withinQuota?: boolean } = {}): Promise<UploadView> {
  if (!file || file.buffer.length === 0) throw badRequest('Please choose a file to upload', { file: 'Please choose a file to upload' });
  if (file.buffer.length > MAX_UPLOAD_BYTES) throw tooLarge();
  const detected = await fileTypeFromBuffer(file.buffer);
  const kind = detected ? ALLOWED[detected.ext] : undefined;
  if (!kind) throw unsupportedType();
  const id = opts.id ?? crypto.randomBytes(12).toString('base64url');
  const sha256 = crypto.createHash('sha256').update(file.buffer).digest('hex');
  const storedName = `${crypto.randomBytes(16).toString('hex')}.${kind.ext}`;
  await store.put(storedName, file.buffer, { contentType: kind.mime, size: file.buffer.length });
  try {
    const values = { id, userId, originalName: sanitizeName(file.originalname, kind.ext), storedName, mime: kind.mime, size: file.buffer.length, sha256 };
    const row = await (opts.withinQuota ? insertUploadWithinQuota(db, values) : insertUploadRow(db, values));
    return toUploadView(row);
  } catch (err) {
    await store.delete(storedName).catch(() => {});
    throw err;
  }
}

/**
 * The upload and its bytes (a stream and its size), for its owner or an admin; 404 otherwise or when the
 * bytes are gone. The caller must consume or destroy `object.stream`.
 */
export async function openUpload(db: Db, store: DocumentStore, user: { id: number; role: string }, id: string): Promise<{ upload: UploadView; object: StoredObject }> {
  const row = await findUploadRow(db, id);
  if (!row || (row.userId !== user.id && user.role !== 'admin')) throw notFound('Document not found');
  const object = await store.get(row.storedName);
  if (!object) throw notFound('Document not found');
  return { upload: toUploadView(row), object };
}

/**
 * Deletes the owner's upload. 404 for someone else's, 409 when an application references it. One transaction locks
 * the row FOR UPDATE and checks the attachment under that lock, so a submission or replacement citing the upload at
 * the same moment (which locks it FOR SHARE, lockCitedUploads) either commits first and gets the 409 here, or
 * waits and then finds the upload gone (400, upload again). The bytes are deleted under the same lock before
 * the row, so a store failure rolls back and leaves a row that can be deleted again rather than bytes nobody can find.
 */
export async function removeUpload(db: Db, store: DocumentStore, userId: number, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await lockUploadRow(tx, id);
    if (!row || row.userId !== userId) throw notFound('Document not found');
    if (await isAttached(tx, id)) throw conflict('This document is part of a submitted application and cannot be deleted.');
    await store.delete(row.storedName);
    await deleteUploadRow(tx, id);
  });
}

/** Throws 400 (field `documents.<slot>`) when a referenced upload is missing or belongs to someone else. */
export async function assertOwnedUploads(db: Db, userId: number, documents: Record<string, string | undefined>): Promise<void> {
  await checkOwned(documents, (ids) => ownedUploadIds(db, userId, ids));
}

/**
 * assertOwnedUploads inside the transaction `tx` that stores the references, with the cited rows locked FOR SHARE
 * until it ends: an upload deleted (removeUpload) or purged meanwhile answers the same 400 (field
 * `documents.<slot>`, UPLOAD_THE_DOCUMENT), and one not yet deleted cannot be until the reference is committed.
 */
export async function lockCitedUploads(tx: DbOrTx, userId: number, documents: Record<string, string | undefined>): Promise<void> {
  await checkOwned(documents, (ids) => lockOwnedUploadIds(tx, userId, ids));
}

async function checkOwned(documents: Record<string, string | undefined>, owned: (ids: string[]) => Promise<Set<string>>): Promise<void> {
  const entries = Object.entries(documents).filter(([, v]) => Boolean(v)) as [string, string][];
  if (entries.length === 0) return;
  const found = await owned(entries.map(([, v]) => v));
  const fields: Record<string, string> = {};
  for (const [slot, id] of entries) if (!found.has(id)) fields[`documents.${slot}`] = UPLOAD_THE_DOCUMENT;
  if (Object.keys(fields).length) throw badRequest('Please upload the required documents again', fields);
}

/** Metadata of the given upload ids (missing ones are left out), keyed by id. */
export async function describeUploads(db: Db, ids: string[]): Promise<Map<string, UploadView>> {
  const rows = await findUploadRows(db, ids);
  return new Map(rows.map((r) => [r.id, toUploadView(r)]));
}

/** The user's own uploads, newest first (at most 200). */
export async function uploadsOf(db: Db, userId: number): Promise<UploadView[]> {
  return (await listUploadRows(db, userId)).map(toUploadView);
}

/** Abandoned uploads are kept this long (ms) after upload before they are erased. */
export const ORPHAN_UPLOAD_TTL_MS = 7 * 24 * 3600_000;

/**
 * Erases uploads older than `ttlMs` that are attached to no application and kept in no draft: each in its own
 * transaction that locks the row FOR UPDATE and checks again under the lock (a submission citing it at that moment
 * either commits first and the upload is kept, or waits and then finds it gone: 400, upload again); the stored
 * bytes, then the row (a store failure throws, rolls back, and the next run retries). Returns how many were erased.
 * Called at start-up and hourly by every node; two nodes purging at once take turns on each row.
 */
export async function purgeOrphanUploads(db: Db, store: DocumentStore, ttlMs = ORPHAN_UPLOAD_TTL_MS, now = Date.now()): Promise<number> {
  const before = new Date(now - ttlMs);
  const candidates = await orphanUploadRows(db, before);
  let erased = 0;
  for (const candidate of candidates) {
    const done = await db.transaction(async (tx) => {
      const row = await lockUploadRow(tx, candidate.id);
      if (!row || !(await isOrphanUpload(tx, row.id, before))) return false;
      await store.delete(row.storedName);
      await deleteUploadRow(tx, row.id);
      return true;
    });
    if (done) erased++;
  }
  return erased;
}
