/**
 * A real S3-protocol server for tests and the scale test (issue #13): `s3rver` (npm) on 127.0.0.1 and a free
 * port, storing in a fresh temporary folder that `close()` removes. `env` holds the S3_* variables that point
 * the document store at it (path-style, s3rver's fixed credentials `S3RVER`/`S3RVER`, bucket created).
 * The multipart calls s3rver lacks and resumable (tus) uploads need are added by `addMultipartShim`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { addMultipartShim } from './s3-multipart-shim.ts';

export interface TestS3Server {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  bucket: string;
  /** The temporary folder s3rver stores in (`<directory>/<bucket>/…`). */
  directory: string;
  /** S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE, DOCUMENT_STORE. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Starts s3rver with `bucket` created. `port` 0 (default) lets the OS choose. */
export async function startS3Server(opts: { bucket?: string; port?: number } = {}): Promise<TestS3Server> {
  const S3rver = createRequire(import.meta.url)('s3rver');
  const bucket = opts.bucket ?? 'college-documents';
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'college-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: opts.port ?? 0, directory, silent: true, configureBuckets: [{ name: bucket }] });
  addMultipartShim(server);
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint, bucket, directory,
    env: {
      DOCUMENT_STORE: 's3', S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', S3_FORCE_PATH_STYLE: 'true',
    },
    close: async () => {
      server.httpServer?.closeAllConnections?.();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
