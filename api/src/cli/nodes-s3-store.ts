/**
 * The S3 document store of the college's nodes, for the maintenance CLIs that do not need the rest of the nodes'
 * configuration (`npm run restore` writes the documents into it; `npm run db:to-postgres` asks it for a restore's
 * marker): built from this process's DOCUMENT_STORE and S3_* variables as loadConfig reads them.
 */
import { loadConfig } from '../config.ts';
import { createDocumentStore, type DocumentStore } from '../storage/document-store.ts';

/** The variables nodesS3Store reads (the S3 document store's settings, README Configuration). */
const S3_VARIABLES = ['DOCUMENT_STORE', 'S3_BUCKET', 'S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'];

/**
 * The S3 document store the college's nodes use, from `env`'s DOCUMENT_STORE and S3_* variables as loadConfig reads
 * them (DOCUMENT_STORE=s3, or S3_BUCKET set and DOCUMENT_STORE not `local`), or undefined for the local store (whose
 * documents are in `dataDir/uploads`). Only those variables are read: the nodes' other settings (SESSION_SECRET,
 * PUBLIC_URL, MAIL_FROM in production) are not needed. Throws ConfigError for invalid S3 settings (a bucket name S3
 * refuses, one credential without the other).
 */
export async function nodesS3Store(dataDir: string, env: NodeJS.ProcessEnv = process.env): Promise<DocumentStore | undefined> {
  const only: NodeJS.ProcessEnv = { NODE_ENV: 'development', DATA_DIR: dataDir };
  for (const name of S3_VARIABLES) if (env[name] !== undefined) only[name] = env[name];
  const config = loadConfig(only);
  return config.DOCUMENT_STORE === 's3' ? createDocumentStore(config) : undefined;
}
