/**
 * tus datastore for resumable uploads (issue #16, DESIGN §6) on the same backend as the document store
 * (issue #13), so a resumed upload works whichever node the balancer picks:
 * - local driver → `@tus/file-store` FileStore in `<DATA_DIR>/uploads/tus` (one node);
 * - S3 driver → `@tus/s3-store` S3Store in the same bucket (S3 multipart upload; parts ≥ 5 MiB, so a
 *   document ≤ 5 MB is one part). Its object key is the tus upload id at the bucket root (plus `<id>.info`).
 *
 * Coordination note for the #16 engineer: when an upload finishes, read its bytes with the datastore's
 * `read(id)` (a stream), check the magic bytes, then copy them into the document store with
 * `store.put(storedName, stream, { size })` under a fresh random key and delete the tus upload
 * (`datastore.remove(id)`), so downloads, erasure and the orphan purge see one kind of object. Across nodes
 * also set the tus server's `locker` to something shared or accept that two PATCHes of one upload on two nodes
 * are not serialised (tus clients send one PATCH at a time, so this only matters for misbehaving clients).
 * The S3Store's metadata cache is per process but only caches immutable facts (upload id, length).
 */
import type { DataStore } from '@tus/utils';
import type { Config } from '../config.ts';
import { localUploadRoot, s3Settings } from './document-store.ts';

/** Tus uploads never finished expire after this long (ms); `datastore.deleteExpired()` removes them. */
export const TUS_EXPIRY_MS = 24 * 3600_000;

/** A tus DataStore for the configured backend. Loads the tus packages only when called. */
export async function tusDatastore(config: Config): Promise<DataStore> {
  if (config.DOCUMENT_STORE === 's3') {
    const { S3Store } = await import('@tus/s3-store');
    const s = s3Settings(config);
    return new S3Store({
      partSize: 5 * 1024 * 1024,
      expirationPeriodInMilliseconds: TUS_EXPIRY_MS,
      s3ClientConfig: { bucket: s.bucket, region: s.region, endpoint: s.endpoint, forcePathStyle: s.forcePathStyle, credentials: s.credentials },
    });
  }
  const { FileStore } = await import('@tus/file-store');
  return new FileStore({ directory: `${localUploadRoot(config.dataDir)}/tus`, expirationPeriodInMilliseconds: TUS_EXPIRY_MS });
}
