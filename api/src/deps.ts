/**
 * AppDeps: what the Express app and every feature router are built from (database, configuration, mailer, the
 * live static build and its rebuild controller, the content-changed hook). Its own module so that routers depend
 * on this type only, not on app.ts, which mounts them (issue #15: one direction of imports).
 */
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { Mailer } from './mail/mailer.ts';
import type { SiteBuilder } from './site-build/builder.ts';
import type { SiteHandle } from './site-build/serve.ts';
import type { DocumentStore } from './storage/document-store.ts';
import type { ContentWatcher } from './cluster/content-watcher.ts';

export interface AppDeps {
  database: Database;
  config: Config;
  mailer: Mailer;
  /** Where uploaded documents' bytes live (local disk or S3; api/src/storage/document-store.ts). */
  store: DocumentStore;
  /** The live static build, if any (absent in API tests). */
  site?: SiteHandle;
  /** Site rebuild controller (absent in API tests). */
  builder?: SiteBuilder;
  /** Announces content changes made on any node (issue #13); the public read cache is cleared on each. */
  contentWatcher?: ContentWatcher;
  /** Called after content that the public site shows has changed (courses, announcements, settings). */
  onContentChanged?: (reason: string) => void;
  /** True once this node is stopping (graceful stop): health then answers 503 so that a balancer takes it out. */
  stopping?: () => boolean;
  /**
   * The start-up check of the newest upload rows against the document store (api/src/storage/document-check.ts):
   * `{checked, missing}` counts, or null while it runs (or when it failed). Shown by health; absent in API tests.
   */
  documents?: () => { checked: number; missing: number } | null;
}
