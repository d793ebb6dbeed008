/**
 * Resumable uploads, tus 1.0 (issue #16 point 1, DESIGN §6 Documents) with `@tus/server`:
 * - creation: `Upload-Length` must be given and ≤ MAX_UPLOAD_BYTES (5 MB, spec §9), else 413 from @tus/server;
 *   409 `upload_limit` past the account's limits (quota.ts: unattached uploads, unfinished tus uploads), and again
 *   at completion, atomically with the upload's row (uploads created below the limit may finish at once);
 *   the owner (the signed-in user) is recorded in the upload's metadata by the server, never taken from the client;
 * - completion: the bytes are read back, checked by magic number and stored like a plain upload
 *   (`storeUpload`), under the tus upload id, so `GET /api/uploads` lists it like any other; a type that is not
 *   allowed answers 415 and the partial file is deleted; the finishing PATCH answers 200 with `{ upload }`;
 * - creation-with-upload (the whole file in the POST, tus 1.0): 201 with Location, Upload-Offset and `{ upload }`; the
 *   partial is removed once the answer is written (POST_FINISH), since @tus/server reads it back after onUploadFinish
 *   (audit: removing it earlier answered 404 "The file for this url was not found" for an upload that was stored);
 * - a HEAD after completion (the client lost the last response) answers offset = length from the finished
 *   upload's row, so the client completes instead of starting again;
 * - partial uploads live in the datastore of the configured document store (`tusDatastore`, issue #13: FileStore
 *   under DATA_DIR/uploads/tus or S3Store in the bucket); abandoned ones expire after TUS_EXPIRY_MS (24 h) and are
 *   purged by `purgeAbandonedTusUploads`.
 * Errors thrown to @tus/server are `{ status_code, body }` with body in the API's error shape (DESIGN §4).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EVENTS, Server, type DataStore, type Upload } from '@tus/server';
import type { AppDeps } from '../../deps.ts';
import type { Config } from '../../config.ts';
import { HttpError } from '../../http/errors.ts';
import { tusResponseError } from '../../http/error-handler.ts';
import { MAX_UPLOAD_BYTES } from '#contracts/common.ts';
import { tusDatastore } from '../../storage/tus-datastore.ts';
import { storeUpload } from './uploads.service.ts';
import type { UploadView } from '#contracts/application-views.ts';
import { findUploadRow } from './uploads.repo.ts';
import { assertUploadRoom, liveTusUploads } from './quota.ts';

/** Route of the tus endpoint (the creation URL; uploads live at `${TUS_PATH}/<id>`). */
export const TUS_PATH = '/api/uploads/tus';

const tusError = (err: HttpError) => ({
  status_code: err.status,
  body: JSON.stringify({ error: { code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) } }),
});

/** The Express request behind a @tus/server (srvx) request. */
const nodeReq = (req: any): (IncomingMessage & { user?: { id: number } }) | undefined => req?.runtime?.node?.req ?? req?.node?.req;

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream as AsyncIterable<Buffer | string>) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return Buffer.concat(chunks);
}

export interface TusUploads {
  /** Passes a request already checked by the router (signed in; owner for /:id) to @tus/server. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /**
   * Who owns upload `id` and how far it got: `{ ownerId, offset, size }` of a partial upload, of a finished one
   * (offset = size), or undefined when there is no such upload.
   */
  lookup(id: string): Promise<{ ownerId: number; offset: number; size: number; finished: boolean } | undefined>;
}

/** Builds the tus endpoint for the app. The datastore is created on first use. */
export function createTusUploads(deps: AppDeps): TusUploads {
  let server: Promise<{ tus: Server; store: DataStore }> | undefined;
  const live = liveTusUploads();
  const db = () => deps.database.db;
  const init = () => (server ??= tusDatastore(deps.config).then((store) => ({
    store,
    tus: new Server({
      path: TUS_PATH,
      datastore: store,
      maxSize: MAX_UPLOAD_BYTES,
      relativeLocation: true,
      // Same-origin only: the API sends no CORS grant (DESIGN §4 same-origin check).
      allowedOrigins: () => false,
      // A full disk or a database error in the API's error shape, logged (http/error-handler.ts), not tus's plain text.
      onResponseError: (req, err) => tusResponseError(req, err),
      async onUploadCreate(req, upload) {
        const user = nodeReq(req)?.user;
        if (!user) throw tusError(new HttpError(401, 'unauthorized', 'Authentication required'));
        if (upload.sizeIsDeferred) throw tusError(new HttpError(400, 'validation_error', 'Upload-Length is required'));
        // Per-account limits (quota.ts): unattached uploads with this one's Upload-Length, and unfinished tus uploads.
        try {
          await assertUploadRoom(db(), user.id, upload.size ?? 0);
          await live.add(user.id, upload.id, (id) => store.getUpload(id).then(() => true, () => false));
        } catch (err) {
          if (err instanceof HttpError) throw tusError(err);
          throw err;
        }
        const filename = String(upload.metadata?.filename ?? upload.metadata?.name ?? 'document').slice(0, 200);
        return { metadata: { filename, ownerId: String(user.id) } };
      },
      async onUploadFinish(req, upload) {
        // Creation-with-upload (the whole file in the POST): @tus/server reads the upload back after this hook (for
        // Upload-Expires), so its partial is removed on POST_FINISH, once the answer is written; the answer stays
        // 201 so tus adds Location (tus 1.0 creation-with-upload). A finishing PATCH answers 200.
        const creating = req.method === 'POST';
        const view = await finish(store, upload, { keepPartial: creating });
        return { status_code: creating ? 201 : 200, headers: { 'Content-Type': 'application/json', 'Upload-Document-Id': view.id }, body: JSON.stringify({ upload: view }) };
      },
    }),
  })).then((built) => {
    // Emitted after a finishing PATCH too, whose partial finish() already removed.
    built.tus.on(EVENTS.POST_TERMINATE, (_req, _res, id) => live.remove(id));
    built.tus.on(EVENTS.POST_FINISH, (req, _res, upload) => {
      if (req.method === 'POST') void built.store.remove(upload.id).catch(() => {});
    });
    return built;
  }));

  /**
   * Stores the finished upload's bytes (storeUpload, under the tus id) and removes its partial; with `keepPartial`
   * (creation-with-upload, removed on POST_FINISH) only when the bytes were refused.
   */
  async function finish(store: DataStore, upload: Upload, opts: { keepPartial?: boolean } = {}): Promise<UploadView> {
    const ownerId = Number(upload.metadata?.ownerId);
    live.remove(upload.id);
    // FileStore.read returns a stream, S3Store.read a promise of one.
    const buffer = await readAll(await (store as any).read(upload.id));
    let stored = false;
    try {
      const view = await storeUpload(db(), deps.store, ownerId, { buffer, originalname: String(upload.metadata?.filename ?? 'document') }, { id: upload.id, withinQuota: true });
      stored = true;
      return view;
    } catch (err) {
      if (err instanceof HttpError) throw tusError(err);
      throw err;
    } finally {
      // Finished either way: the bytes are now a stored upload, or refused. The partial is not kept.
      if (!(stored && opts.keepPartial)) await store.remove(upload.id).catch(() => {});
    }
  }

  return {
    async handle(req, res) {
      const { tus } = await init();
      await tus.handle(req, res);
    },
    async lookup(id) {
      const { store } = await init();
      try {
        const u = await store.getUpload(id);
        return { ownerId: Number(u.metadata?.ownerId), offset: u.offset, size: u.size ?? 0, finished: false };
      } catch {
        const row = await findUploadRow(db(), id);
        return row ? { ownerId: row.userId, offset: row.size, size: row.size, finished: true } : undefined;
      }
    },
  };
}

/**
 * Deletes partial tus uploads older than TUS_EXPIRY_MS (24 h): their bytes and info files. Returns how many.
 * Called at start-up and hourly by the server, beside the orphan-upload purge.
 */
export async function purgeAbandonedTusUploads(config: Config): Promise<number> {
  const store = await tusDatastore(config);
  return store.deleteExpired();
}
