/**
 * The document store (issue #13 point 1, DESIGN §6 "Documents"): where uploaded documents' bytes live, so that
 * every node of the college reads the same files. Two drivers behind one interface:
 * - `local` (default, one node): files under `<DATA_DIR>/uploads/<key>` (api/src/storage/local-store.ts);
 * - `s3` (several nodes): any S3-compatible service (api/src/storage/s3-store.ts), chosen by
 *   `DOCUMENT_STORE=s3` or by setting `S3_BUCKET`.
 * Objects are private in both: nothing is served from the store directly; downloads stream through the API,
 * which checks who is asking (GET /api/uploads/:id).
 *
 * Keys are relative names of letters, digits, `.`, `_`, `-` and `/` between segments (e.g. `3f9a….pdf`,
 * `tus/abc`), never `..` or a leading `/`: `assertKey` throws a TypeError otherwise, so a key can never
 * reach outside the upload folder of the local driver.
 *
 * Resumable uploads (tus, issue #16) use a datastore for the same backend: see `tusDatastore()` in
 * api/src/storage/tus-datastore.ts.
 */
import type { Readable } from 'node:stream';
import type { Config } from '../config.ts';

/** An object read from the store: its bytes as a stream and its size in bytes. */
export interface StoredObject { stream: Readable; size: number }

export interface DocumentStore {
  /** 'local' or 's3', for logs and the README's table. */
  readonly kind: 'local' | 's3';
  /**
   * Writes `body` under `key`, replacing nothing: the caller picks a fresh random key. `size` (bytes) is
   * needed for a stream on S3 (a stream without it is read into memory first; documents are ≤ 5 MB).
   * Throws on a storage failure (the caller answers 500/503 and writes no database row).
   */
  put(key: string, body: Buffer | Readable, opts?: { contentType?: string; size?: number }): Promise<void>;
  /** The object, or `undefined` when there is none under `key`. */
  get(key: string): Promise<StoredObject | undefined>;
  /** Deletes the object; deleting a missing key is not an error (erasure is idempotent). */
  delete(key: string): Promise<void>;
  /** True when an object exists under `key`. */
  exists(key: string): Promise<boolean>;
  /** Every key starting with `prefix` (maintenance and tests; pages through the whole store). */
  list(prefix?: string): Promise<string[]>;
  /** Creates what the store needs (upload folder, bucket) and checks it can be reached; throws with a clear message. */
  init(): Promise<void>;
}

const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** Throws TypeError unless `key` is a safe relative key (see module docstring). Returns it. */
export function assertKey(key: string): string {
  if (typeof key !== 'string' || key.length > 512 || !KEY.test(key) || key.split('/').some((s) => s === '.' || s === '..')) {
    throw new TypeError(`Invalid document key: ${JSON.stringify(key)}`);
  }
  return key;
}

/** Reads a stream fully (bounded by `maxBytes`; throws RangeError beyond). */
export async function streamToBuffer(stream: Readable, maxBytes = 64 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const chunk of stream) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    n += b.length;
    if (n > maxBytes) throw new RangeError(`Stream larger than ${maxBytes} bytes`);
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/**
 * The store the configuration asks for: S3 when `DOCUMENT_STORE=s3` (config.ts requires `S3_BUCKET` then),
 * otherwise the local folder `<dataDir>/uploads`. Does not touch the backend; call `init()` before use.
 */
export async function createDocumentStore(config: Config): Promise<DocumentStore> {
  if (config.DOCUMENT_STORE === 's3') {
    const { S3DocumentStore } = await import('./s3-store.ts');
    return new S3DocumentStore(s3Settings(config));
  }
  const { LocalDocumentStore } = await import('./local-store.ts');
  return new LocalDocumentStore(localUploadRoot(config.dataDir));
}

/** The local driver's folder (and the tus FileStore's parent): `<dataDir>/uploads`. */
export const localUploadRoot = (dataDir: string): string => `${dataDir.replace(/\/+$/, '')}/uploads`;

/** Connection settings of the S3 driver, from the S3_* variables (also used by tusDatastore()). */
export interface S3Settings {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** S3Settings from the configuration. Throws TypeError when S3_BUCKET is missing (config.ts prevents that). */
export function s3Settings(config: Config): S3Settings {
  if (!config.S3_BUCKET) throw new TypeError('S3_BUCKET is not set');
  return {
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    credentials: config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
      ? { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY } : undefined,
  };
}
