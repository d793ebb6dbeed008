/**
 * S3 driver of the document store (api/src/storage/document-store.ts) for several nodes (issue #13): any
 * S3-compatible service (AWS S3, MinIO, Ceph, s3rver in tests) through `@aws-sdk/client-s3`. Objects are
 * written without an ACL (private, the bucket's default) and with `Content-Disposition: attachment`, so even a
 * misconfigured public bucket would not render a document in a browser. `init()` creates the bucket when it
 * does not exist (so a fresh MinIO/s3rver works), and throws a clear error when the service cannot be reached.
 */
import type { Readable } from 'node:stream';
import {
  S3Client, PutObjectCommand, GetObjectCommand, DeleteObjectCommand, HeadObjectCommand, HeadBucketCommand,
  CreateBucketCommand, ListObjectsCommand, ListObjectsV2Command,
} from '@aws-sdk/client-s3';
import { assertKey, streamToBuffer, type DocumentStore, type S3Settings, type StoredObject } from './document-store.ts';

const isMissing = (err: any) => err?.name === 'NoSuchKey' || err?.name === 'NotFound' || err?.$metadata?.httpStatusCode === 404;

/**
 * Client options for every S3-compatible service, not only AWS (also given to the tus S3Store, tus-datastore.ts):
 * checksums only where the operation requires one. Since @aws-sdk/client-s3 3.729 the default adds a CRC32 to
 * every upload, and for a stream body (the tus store's parts) sends it as an `aws-chunked` trailer; services that
 * do not decode aws-chunked (s3rver, older MinIO and Ceph RGW) then store the chunk framing inside the object,
 * which corrupted every resumable upload on them (issue #16 point 1).
 */
export const S3_COMPAT_CLIENT_OPTIONS = { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } as const;

/** The SDK client for `settings`: path style and credentials as configured, S3_COMPAT_CLIENT_OPTIONS, two attempts. */
export function s3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    ...S3_COMPAT_CLIENT_OPTIONS,
    // One retry is enough for a document request; a node that cannot reach the store should answer quickly.
    maxAttempts: 2,
  });
}

/**
 * Document store in S3 bucket `bucket` (issue #13): private objects with Content-Disposition attachment; get of a missing key → undefined; other S3 errors are thrown.
 */
export class S3DocumentStore implements DocumentStore {
  readonly kind = 's3' as const;
  readonly bucket: string;
  readonly client: S3Client;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.client = s3Client(settings);
  }

  async init(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err: any) {
      if (!isMissing(err)) throw new Error(`Cannot reach the S3 bucket "${this.bucket}": ${err?.name ?? ''} ${err?.message ?? err}`.trim());
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
    }
  }

  async put(key: string, body: Buffer | Readable, opts: { contentType?: string; size?: number } = {}): Promise<void> {
    assertKey(key);
    const data = Buffer.isBuffer(body) || opts.size !== undefined ? body : await streamToBuffer(body);
    await this.client.send(new PutObjectCommand({
      Bucket: this.bucket, Key: key, Body: data,
      ContentLength: Buffer.isBuffer(data) ? data.length : opts.size,
      ContentType: opts.contentType ?? 'application/octet-stream',
      ContentDisposition: 'attachment',
    }));
  }

  async get(key: string): Promise<StoredObject | undefined> {
    assertKey(key);
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return { stream: out.Body as Readable, size: Number(out.ContentLength ?? 0) };
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async exists(key: string): Promise<boolean> {
    assertKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  /**
   * Up to `max` keys (1…1000) in key order and whether the bucket holds more: one ListObjects (v1) request with
   * MaxKeys, for "is it empty" (the restore) without listing the whole bucket. S3 errors are thrown (NoSuchBucket too).
   * v1, which every S3-compatible service has, because on a truncated answer v2 makes a continuation token, and
   * s3rver's (DES) cannot be made under Node 24's OpenSSL 3 (InternalError).
   */
  async firstKeys(max: number): Promise<{ keys: string[]; more: boolean }> {
    const out = await this.client.send(new ListObjectsCommand({ Bucket: this.bucket, MaxKeys: max }));
    const keys = (out.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : []));
    return { keys, more: Boolean(out.IsTruncated) };
  }

  async list(prefix = ''): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const out = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix || undefined, ContinuationToken: token }));
      for (const o of out.Contents ?? []) if (o.Key) keys.push(o.Key);
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }
}
