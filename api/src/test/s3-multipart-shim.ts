/**
 * Test infrastructure, not product: the three multipart-upload calls that `s3rver` 3.7 (our in-process S3 test
 * server) does not implement but `@tus/s3-store` needs for resumable uploads on the S3 document store (issue #16
 * point 1, issue #13). No npm S3 server usable in-process has them either (the `@20minutes/s3rver` fork has the
 * same routes), so they are added here, on s3rver's own multipart files:
 * - ListParts `GET /{bucket}/{key}?uploadId=…[&part-number-marker=N]` — the parts uploaded so far (number, size,
 *   ETag, last modified), as S3 answers it (tus reads the offset of an upload from it);
 * - AbortMultipartUpload `DELETE /{bucket}/{key}?uploadId=…` — drops the parts (204);
 * - ListMultipartUploads `GET /{bucket}?uploads` — the unfinished uploads with their `Initiated` time (the tus
 *   24-hour purge reads it).
 * An unknown or already completed upload answers 404 `NoSuchUpload`, as S3 does. s3rver keeps an unfinished upload
 * in `<bucket>/._S3rver_uploads/<uploadId>/` (files `key`, `metadata`, `<partNumber>` and `<partNumber>.md5`);
 * `Initiated` is the modification time of its `key` file. Page sizes: 1000 parts, 1000 uploads, never truncated
 * beyond that (tests stay far below). Requests handled here skip s3rver's signature check.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';

/** The parts of s3rver (a Koa app) the shim uses. */
interface S3rverApp {
  middleware: Array<(ctx: any, next: () => Promise<void>) => unknown>;
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
}

const require = createRequire(import.meta.url);

/**
 * Adds ListParts, AbortMultipartUpload and ListMultipartUploads to an s3rver instance that has not started yet.
 * The shim runs just before s3rver's router, so its XML encoding and error answers apply (a thrown S3Error
 * becomes S3's XML error with its status).
 */
export function addMultipartShim(server: S3rverApp): void {
  const S3Error = require('s3rver/lib/models/error');
  const noSuchUpload = (uploadId: string) => new S3Error('NoSuchUpload', 'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.', { UploadId: uploadId });
  const uploadsDir = (bucket: string) => server.store.getResourcePath(bucket, undefined, 'uploads');
  const uploadDir = async (bucket: string, uploadId: string, key: string): Promise<string> => {
    if (!/^[A-Za-z0-9]+$/.test(uploadId)) throw noSuchUpload(uploadId);
    const dir = path.join(uploadsDir(bucket), uploadId);
    const stored = await fs.readFile(path.join(dir, 'key'), 'utf8').catch(() => undefined);
    if (stored !== key) throw noSuchUpload(uploadId);
    return dir;
  };

  async function listParts(ctx: any, bucket: string, key: string): Promise<void> {
    const uploadId = String(ctx.query.uploadId);
    const dir = await uploadDir(bucket, uploadId, key);
    const marker = Number(ctx.query['part-number-marker'] ?? 0);
    const numbers = (await fs.readdir(dir)).filter((f) => /^\d+$/.test(f)).map(Number).filter((n) => n > marker).sort((a, b) => a - b).slice(0, 1000);
    const parts = await Promise.all(numbers.map(async (n) => {
      const [stat, md5] = await Promise.all([fs.stat(path.join(dir, String(n))), fs.readFile(path.join(dir, `${n}.md5`), 'utf8')]);
      return { PartNumber: n, LastModified: stat.mtime.toISOString(), ETag: JSON.stringify(md5), Size: stat.size };
    }));
    ctx.body = {
      ListPartsResult: {
        Bucket: bucket, Key: key, UploadId: uploadId, StorageClass: 'STANDARD',
        PartNumberMarker: marker, NextPartNumberMarker: parts.at(-1)?.PartNumber ?? marker, MaxParts: 1000, IsTruncated: false,
        ...(parts.length ? { Part: parts } : {}),
      },
    };
  }

  async function abort(ctx: any, bucket: string, key: string): Promise<void> {
    const dir = await uploadDir(bucket, String(ctx.query.uploadId), key);
    await fs.rm(dir, { recursive: true, force: true });
    ctx.status = 204;
  }

  async function listUploads(ctx: any, bucket: string): Promise<void> {
    const root = uploadsDir(bucket);
    const ids = (await fs.readdir(root).catch(() => [] as string[])).sort();
    const uploads = (await Promise.all(ids.map(async (uploadId) => {
      const file = path.join(root, uploadId, 'key');
      const [key, stat] = await Promise.all([fs.readFile(file, 'utf8').catch(() => undefined), fs.stat(file).catch(() => undefined)]);
      return key !== undefined && stat ? { Key: key, UploadId: uploadId, Initiated: stat.mtime.toISOString(), StorageClass: 'STANDARD' } : undefined;
    }))).filter((u) => u !== undefined).slice(0, 1000);
    ctx.body = {
      ListMultipartUploadsResult: {
        Bucket: bucket, KeyMarker: '', UploadIdMarker: '', MaxUploads: 1000, IsTruncated: false,
        ...(uploads.length ? { Upload: uploads } : {}),
      },
    };
  }

  const shim = async (ctx: any, next: () => Promise<void>): Promise<unknown> => {
    const [, bucket, ...rest] = String(ctx.path).split('/');
    const key = rest.map(decodeURIComponent).join('/');
    if (!bucket) return next();
    if (key && 'uploadId' in ctx.query && ctx.method === 'GET') return listParts(ctx, bucket, key);
    if (key && 'uploadId' in ctx.query && ctx.method === 'DELETE') return abort(ctx, bucket, key);
    if (!key && 'uploads' in ctx.query && ctx.method === 'GET') return listUploads(ctx, bucket);
    return next();
  };
  // s3rver's last middleware is its router: run just before it.
  server.middleware.splice(server.middleware.length - 1, 0, shim);
}
