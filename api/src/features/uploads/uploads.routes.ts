/**
 * Upload routes (DESIGN §4 Documents): GET /api/uploads → {uploads} (own); POST /api/uploads (multipart, one file in field `file`, ≤ 5 MB)
 * → 201 {upload}; GET /api/uploads/:id → the bytes as an attachment (owner or admin, else 404; `?inline=1` → shown
 * in the browser, `Content-Disposition: inline`, for PDF, PNG and JPEG only), streamed from
 * the document store through this API whichever driver holds them (objects are never public);
 * DELETE /api/uploads/:id → 204 (owner, not yet attached to an application).
 */
import { pipeline } from 'node:stream/promises';
import { Router, type RequestHandler } from 'express';
import multer from 'multer';
import { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import { validate } from '../../http/validate.ts';
import { currentUser, requireUser } from '../../http/guards.ts';
import { badRequest } from '../../http/errors.ts';
import { MAX_UPLOAD_BYTES } from '#contracts/common.ts';
import { openUpload, removeUpload, storeUpload, tooLarge, uploadsOf } from './uploads.service.ts';
import { assertUploadRoom } from './quota.ts';

const UploadIdParamSchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{10,64}$/, 'Not found') });

// Browsers and HTTP clients send the part's filename as raw UTF-8 (WHATWG multipart/form-data); multer's default
// for defParamCharset, latin1, turned 'Sébastien – ID.pdf' into 'SÃ©bastien â€“ ID.pdf'.
const parser = multer({ storage: multer.memoryStorage(), defParamCharset: 'utf8', limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5, parts: 6, fieldNameSize: 100 } }).single('file');

/** multer with its errors mapped: too large → 413, anything else about the form (a broken multipart body too) → 400. */
export const parseFile: RequestHandler = (req, res, next) => {
  const declared = Number(req.headers['content-length'] ?? 0);
  // Refuse an obviously oversized body before reading it (multipart overhead allowance 64 KB).
  if (declared > MAX_UPLOAD_BYTES + 65_536) { res.setHeader('Connection', 'close'); return next(tooLarge()); }
  parser(req, res, (err: unknown) => {
    if (!err) return next();
    if (err instanceof multer.MulterError) {
      if (err.code === 'LIMIT_FILE_SIZE') return next(tooLarge());
      return next(badRequest('Please upload one file in the field "file"', { file: 'Please upload one file at a time' }));
    }
    // busboy's own refusals of a malformed body ('Multipart: Boundary not found', 'Unexpected end of form', …).
    if (err instanceof Error && /^(Multipart|Malformed|Unexpected end of)/.test(err.message)) {
      return next(badRequest('Please upload one file in the field "file"', { file: 'The upload was not a valid form; please choose the file again' }));
    }
    next(err);
  });
};

/** Header value for a download or an inline view: ASCII fallback plus RFC 5987 UTF-8 name. */
function contentDisposition(type: 'attachment' | 'inline', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Types a browser shows by itself (its PDF viewer, an image); DOC and DOCX are always downloaded. */
const VIEWABLE = new Set(['application/pdf', 'image/png', 'image/jpeg']);

/** `?inline=1` asks to view the document in the browser rather than download it. */
const DownloadQuerySchema = z.object({ inline: z.literal('1', { error: 'inline must be 1' }).optional() });

const idParam = validate(UploadIdParamSchema, 'params');
const downloadQuery = validate(DownloadQuerySchema, 'query');

/**
 * Router at /api/uploads (DESIGN §4 Documents): list, upload (≤ 5 MB else 413; PDF, DOC, DOCX, JPEG, PNG by magic bytes else 415;
 * 409 upload_limit past the account's unattached uploads, quota.ts),
 * download or inline view (owner or admin; always with a sandbox CSP, nosniff and no-store), delete (owner, unattached).
 */
export function uploadsRouter(deps: AppDeps): Router {
  const r = Router();
  const store = deps.store;
  r.get('/', requireUser, async (req, res) => {
    res.json({ uploads: await uploadsOf(deps.database.db, currentUser(req).id) });
  });
  // The account's limits (quota.ts) are checked before the file is read (409 upload_limit), and again, atomically
  // with the insert, once it is stored (storeUpload withinQuota): parallel uploads all pass the first check.
  const room: RequestHandler = async (req, _res, next) => {
    await assertUploadRoom(deps.database.db, currentUser(req).id, Math.min(Number(req.headers['content-length']) || 0, MAX_UPLOAD_BYTES));
    next();
  };
  r.post('/', requireUser, room, parseFile, async (req, res) => {
    const user = currentUser(req);
    const upload = await storeUpload(deps.database.db, store, user.id, req.file, { withinQuota: true });
    res.status(201).json({ upload });
  });
  r.get('/:id', requireUser, idParam, downloadQuery, async (req, res) => {
    const { upload, object } = await openUpload(deps.database.db, store, currentUser(req), idParam.data(req).id);
    const inline = downloadQuery.data(req).inline === '1' && VIEWABLE.has(upload.mime);
    res.setHeader('Content-Type', upload.mime);
    res.setHeader('Content-Length', String(object.size));
    res.setHeader('Content-Disposition', contentDisposition(inline ? 'inline' : 'attachment', upload.name));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // The sandbox applies to an inline view too: no script, no same-origin access (Chromium 156 still shows a
    // top-level PDF under it; a sandboxed <iframe> would not, so the admin portal opens a new tab instead).
    res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
    res.setHeader('Cache-Control', 'private, no-store');
    // A store failure mid-stream can only cut the response short (headers are gone); the client sees a short body.
    await pipeline(object.stream, res).catch((err) => { if (!res.writableEnded) res.destroy(err); });
  });
  r.delete('/:id', requireUser, idParam, async (req, res) => {
    await removeUpload(deps.database.db, store, currentUser(req).id, idParam.data(req).id);
    res.status(204).end();
  });
  return r;
}
