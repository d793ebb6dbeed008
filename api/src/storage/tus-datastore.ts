/**
 * tus datastore for resumable uploads (issue #16, DESIGN §6) on the same backend as the document store
 * (issue #13), so a resumed upload works whichever node the balancer picks:
 * - local driver → `@tus/file-store` FileStore in `<DATA_DIR>/uploads/tus` (one node);
 * - S3 driver → `@tus/s3-store` S3Store in the same bucket (S3 multipart upload; parts ≥ 5 MiB, so a
 *   document ≤ 5 MB is one part, and until it is complete its bytes wait in `<id>.part`). Its object key is the
 *   tus upload id at the bucket root (plus `<id>.info`); `remove(id)` deletes all three (see CleanS3Store).
 *
 * Coordination note for the #16 engineer: when an upload finishes, read its bytes with the datastore's
 * `read(id)` (a stream), check the magic bytes, then copy them into the document store with
 * `store.put(storedName, stream, { size })` under a fresh random key and delete the tus upload
 * (`datastore.remove(id)`), so downloads, erasure and the orphan purge see one kind of object. Across nodes
 * also set the tus server's `locker` to something shared or accept that two PATCHes of one upload on two nodes
 * are not serialised (tus clients send one PATCH at a time, so this only matters for misbehaving clients).
 * The S3Store keeps no metadata cache (one small GET of `<id>.info` per request instead), so every node and the
 * purge see the same state.
 */
import fs from 'node:fs';
import type { DataStore } from '@tus/utils';
import type { Config } from '../config.ts';
import { localUploadRoot, s3Settings } from './document-store.ts';

/** Tus uploads never finished expire after this long (ms); `datastore.deleteExpired()` removes them. */
export const TUS_EXPIRY_MS = 24 * 3600_000;

/** A tus DataStore for the configured backend (the local one's folder created first). Loads the tus packages only when called. */
export async function tusDatastore(config: Config): Promise<DataStore> {
  if (config.DOCUMENT_STORE === 's3') {
    const { S3Store } = await import('@tus/s3-store');
    const { S3_COMPAT_CLIENT_OPTIONS } = await import('./s3-store.ts');
    /**
     * S3Store whose `remove(id)` leaves no object of the upload behind. The stock one aborts the multipart upload
     * and then deletes `<id>` and `<id>.info`, but (1) after completion S3 answers the abort with NoSuchUpload, so
     * it throws before deleting anything: every finished or refused upload left its whole file and `.info` in the
     * bucket, outside the documents' erasure; (2) it never deletes `<id>.part`, where a tus upload smaller than
     * a part keeps the bytes received so far, so a cancelled upload left them. Here all three are deleted whatever
     * the abort answers (deleting a missing key is not an error in S3); the abort's error is still thrown.
     */
    class CleanS3Store extends S3Store {
      override async remove(id: string): Promise<void> {
        try {
          await super.remove(id);
        } finally {
          await this.client.deleteObjects({ Bucket: this.bucket, Delete: { Objects: [{ Key: id }, { Key: this.infoKey(id) }, { Key: this.partKey(id, true) }], Quiet: true } });
          await this.clearCache(id);
        }
      }
    }
    const s = s3Settings(config);
    return new CleanS3Store({
      partSize: 5 * 1024 * 1024,
      // No metadata cache: each request reads `<id>.info`, so an upload purged or removed by another datastore
      // (the hourly purge, another node) is gone at once. With the default per-process cache, HEAD of a purged
      // upload answered "complete" (offset = length) because its aborted multipart upload looked finished.
      cache: { get: async () => undefined, set: async () => {}, delete: async () => {} },
      expirationPeriodInMilliseconds: TUS_EXPIRY_MS,
      s3ClientConfig: { bucket: s.bucket, region: s.region, endpoint: s.endpoint, forcePathStyle: s.forcePathStyle, credentials: s.credentials, ...S3_COMPAT_CLIENT_OPTIONS },
    });
  }
  const { FileStore } = await import('@tus/file-store');
  const directory = `${localUploadRoot(config.dataDir)}/tus`;
  // FileStore creates its folder in the background (fs.mkdir with a callback): the start-up purge, or an upload
  // in the first moments, read it before it existed (ENOENT) on a new DATA_DIR.
  await fs.promises.mkdir(directory, { recursive: true });
  return new FileStore({ directory, expirationPeriodInMilliseconds: TUS_EXPIRY_MS });
}
