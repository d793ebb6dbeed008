/**
 * Uploads (DESIGN §4 Documents; spec §5 Step 3, §9 5 MB):
 * - storeUpload: checks the bytes' magic number (PDF, DOC = OLE/CFB, DOCX = zip with word/, JPEG, PNG;
 *   anything else → 415), writes them under `<dataDir>/uploads/<random>.<ext>` — never the client's name,
 *   so a `../` name cannot reach outside the folder — and records the sanitised original name for display.
 * - openUpload: the file for its owner or an admin; anyone else gets 404 (no existence leak).
 * - removeUpload: owner only, refused with 409 once an application references it.
 * - uploadsOf: the user's own uploads (student dashboard Documents tab).
 * - assertOwnedUploads: an application may only reference uploads its applicant made.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import type { Db } from '../../db/client.ts';
import { badRequest, conflict, HttpError, notFound } from '../../http/errors.ts';
import { MAX_UPLOAD_BYTES } from '#contracts/common.ts';
import { deleteUploadRow, findUploadRow, findUploadRows, insertUploadRow, isAttached, listUploadRows, orphanUploadRows, ownedUploadIds, type UploadRow } from './uploads.repo.ts';

/** What clients see of an upload. `size` in bytes, `createdAt` ISO 8601. */
export interface UploadView { id: string; name: string; mime: string; size: number; createdAt: string }

const ALLOWED: Record<string, { ext: string; mime: string }> = {
  pdf: { ext: 'pdf', mime: 'application/pdf' },
  cfb: { ext: 'doc', mime: 'application/msword' },
  docx: { ext: 'docx', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  jpg: { ext: 'jpg', mime: 'image/jpeg' },
  png: { ext: 'png', mime: 'image/png' },
};

export const unsupportedType = () => new HttpError(415, 'unsupported_media_type', 'Only PDF, DOC, DOCX, JPG, JPEG and PNG files are accepted');
export const tooLarge = () => new HttpError(413, 'payload_too_large', 'File size exceeds 5MB limit');

export const uploadDir = (dataDir: string) => path.join(dataDir, 'uploads');

/** Display name: last path segment, no control or odd characters, at most 120 characters. */
export function sanitizeName(name: string, ext: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '').normalize('NFC')
    .replace(/[\u0000-\u001f\u007f]/g, '').replace(/[^\p{L}\p{N} ._()-]/gu, '_').replace(/^[.\s]+/, '').trim().slice(0, 120);
  return base || `document.${ext}`;
}

export function toUploadView(r: UploadRow): UploadView {
  return { id: r.id, name: r.originalName, mime: r.mime, size: r.size, createdAt: r.createdAt instanceof Date ? r.createdAt.toISOString() : String(r.createdAt) };
}

/** Stores one file for `userId`. Throws 400 (no file), 413 (> 5 MB), 415 (type not allowed by its bytes). */
export async function storeUpload(db: Db, dataDir: string, userId: number, file: { buffer: Buffer; originalname: string } | undefined): Promise<UploadView> {
  if (!file || file.buffer.length === 0) throw badRequest('Please choose a file to upload', { file: 'Please choose a file to upload' });
  if (file.buffer.length > MAX_UPLOAD_BYTES) throw tooLarge();
  const detected = await fileTypeFromBuffer(file.buffer);
  const kind = detected ? ALLOWED[detected.ext] : undefined;
  if (!kind) throw unsupportedType();
  const id = crypto.randomBytes(12).toString('base64url');
  const storedName = `${crypto.randomBytes(16).toString('hex')}.${kind.ext}`;
  const dir = uploadDir(dataDir);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, storedName), file.buffer, { flag: 'wx', mode: 0o600 });
  try {
    const row = await insertUploadRow(db, { id, userId, originalName: sanitizeName(file.originalname, kind.ext), storedName, mime: kind.mime, size: file.buffer.length });
    return toUploadView(row);
  } catch (err) {
    await fs.rm(path.join(dir, storedName), { force: true });
    throw err;
  }
}

/** The upload and its absolute path, for its owner or an admin; 404 otherwise or when the bytes are gone. */
export async function openUpload(db: Db, dataDir: string, user: { id: number; role: string }, id: string): Promise<{ upload: UploadView; file: string }> {
  const row = await findUploadRow(db, id);
  if (!row || (row.userId !== user.id && user.role !== 'admin')) throw notFound('Document not found');
  const file = path.join(uploadDir(dataDir), path.basename(row.storedName));
  try { await fs.access(file); } catch { throw notFound('Document not found'); }
  return { upload: toUploadView(row), file };
}

/** Deletes the owner's upload. 404 for someone else's, 409 when an application references it. */
export async function removeUpload(db: Db, dataDir: string, userId: number, id: string): Promise<void> {
  const row = await findUploadRow(db, id);
  if (!row || row.userId !== userId) throw notFound('Document not found');
  if (await isAttached(db, id)) throw conflict('This document is part of a submitted application and cannot be deleted.');
  await deleteUploadRow(db, id);
  await fs.rm(path.join(uploadDir(dataDir), path.basename(row.storedName)), { force: true });
}

/** Throws 400 (field `documents.<slot>`) when a referenced upload is missing or belongs to someone else. */
export async function assertOwnedUploads(db: Db, userId: number, documents: Record<string, string | undefined>): Promise<void> {
  const entries = Object.entries(documents).filter(([, v]) => Boolean(v)) as [string, string][];
  if (entries.length === 0) return;
  const owned = await ownedUploadIds(db, userId, entries.map(([, v]) => v));
  const fields: Record<string, string> = {};
  for (const [slot, id] of entries) if (!owned.has(id)) fields[`documents.${slot}`] = 'This document was not found. Please upload it again.';
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
 * Erases uploads older than `ttlMs` that are attached to no application and kept in no draft: the row and
 * the file. Returns how many were erased. Called at start-up and hourly by the server.
 */
export async function purgeOrphanUploads(db: Db, dataDir: string, ttlMs = ORPHAN_UPLOAD_TTL_MS, now = Date.now()): Promise<number> {
  const rows = await orphanUploadRows(db, new Date(now - ttlMs));
  for (const row of rows) {
    await deleteUploadRow(db, row.id);
    await fs.rm(path.join(uploadDir(dataDir), path.basename(row.storedName)), { force: true });
  }
  return rows.length;
}
