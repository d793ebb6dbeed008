/**
 * Entry point (DESIGN §3): config → database (migrations) → session secret, seed, admin (one node at a time on
 * PostgreSQL) → listen → site build → mail worker → hourly erasure of abandoned uploads and retention sweep; and the graceful stop
 * (health 503 for SHUTDOWN_GRACE_MS, then 503 + Connection: close to new requests for SHUTDOWN_REFUSE_MS, requests in
 * flight finish, then workers and database).
 * `startServer()` is exported for benchmarks and fault tests; running this file starts it with process.env.
 */
import path from 'node:path';
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { loadConfig, ConfigError, type Config } from './config.ts';
import { fileDriverWarning, publicUrlWarning, siteOrigin } from './mail/links.ts';
import { checkPortFree, ensureWritableDataDir, listenError } from './startup-checks.ts';
import { resolveSessionSecret } from './auth/session-secret.ts';
import { openDatabase, MigrationError, type Database } from './db/client.ts';
import { bucketMarkerMessage, cannotConnectYet, databaseMarkerMessage, embeddedDatabase, incompleteRestoreMessage, POSTGRES_DATABASE, postgresMarkerMessage } from './db/restore-marker.ts';
import { seed } from './db/seed.ts';
import { createApp } from './app.ts';
import { ensureAdmin } from './features/auth/auth.service.ts';
import { afterAnswerSettled } from './features/auth/after-answer.ts';
import { hasAdmin } from './auth/users-repo.ts';
import { SiteBuilder } from './site-build/builder.ts';
import { createBuildShare } from './site-build/shared-builds.ts';
import { fileMailer, smtpMailer, type Mailer } from './mail/mailer.ts';
import { smtpSettings } from './mail/transport-options.ts';
import { startMailWorker } from './mail/outbox.ts';
import { startSmsWorker } from './sms/sms-outbox.ts';
import { describeSendError } from './db/outbox.ts';
import { describeErrorForLog } from './http/error-log.ts';
import { smsDriverFromConfig } from './sms/sms-drivers.ts';
import { purgeOrphanUploads } from './features/uploads/uploads.service.ts';
import { retentionSweep } from './features/retention/retention.service.ts';
import { purgeAbandonedTusUploads } from './features/uploads/tus.service.ts';
import { createDocumentStore, type DocumentStore } from './storage/document-store.ts';
import { checkDocuments, describeStore, documentCheckSummary, STARTUP_DOCUMENT_CHECK_ROWS, type DocumentCheck } from './storage/document-check.ts';
import { startContentWatcher, claimHookForCurrentVersion, releaseHookClaim, type ContentWatcher } from './cluster/content-watcher.ts';

export interface RunningServer {
  url: string; server: Server; database: Database; store: DocumentStore; builder: SiteBuilder; contentWatcher: ContentWatcher; config: Config;
  /** The start-up check of the newest upload rows against the store (runs after listen; null when it failed). */
  documentCheck: Promise<DocumentCheck | null>;
  /**
   * Graceful stop (SIGTERM, SIGINT): health answers 503 for SHUTDOWN_GRACE_MS (the balancer takes the node out while
   * it still serves), then for SHUTDOWN_REFUSE_MS (0.3 s) new requests get 503 + Connection: close + Retry-After (on
   * PGlite too, so requests already accepted are answered, not reset), then no new connections, idle ones closed,
   * requests in flight given up to SHUTDOWN_TIMEOUT_MS
   * to finish before the remaining connections are cut; then the workers, the site builder and the database stop.
   * Calling it again returns the same promise.
   */
  close(): Promise<void>;
}

/**
 * Starts a node from `env` (README Configuration): config, database (migrations, seed, ADMIN_EMAIL), document store,
 * mail and SMS workers, purges, content watcher, site build and HTTP listener; DATA_DIR and PORT are checked first
 * (startup-checks.ts). Resolves when listening (and, with `waitForSite`, once the site is built). Throws ConfigError
 * naming the variable when config or database is unusable (a failed migration is told apart from an unreachable
 * server), or when SESSION_SECRET differs from the other nodes', or when DATA_DIR holds RESTORE-INCOMPLETE (a restore
 * into it did not finish: db/restore-marker.ts; checked before the database is opened), or when the database holds the
 * table restore_incomplete or the S3 bucket the object RESTORE-INCOMPLETE (a restore run from any host did not finish;
 * PostgreSQL and the bucket are asked at once before migrations run, the database's refusal told first; the embedded
 * database, whose restore always leaves the DATA_DIR file too, right after it is opened), in the same words; and when
 * the PostgreSQL server answers that check with anything but "cannot connect yet" (cannotConnectYet).
 * On PostgreSQL, migrations, the stored secrets, the seed and ADMIN_EMAIL run under an advisory lock, so nodes
 * starting at once on an empty database take turns.
 */
export async function startServer(env: NodeJS.ProcessEnv = process.env, opts: { mailer?: Mailer; waitForSite?: boolean } = {}): Promise<RunningServer> {
  const t0 = Date.now();
  const config = loadConfig(env);
  ensureWritableDataDir(config.dataDir);
  // A restore into this DATA_DIR that did not finish (killed while loading or writing documents): never serve it.
  const unfinishedRestore = incompleteRestoreMessage(config.dataDir);
  if (unfinishedRestore) throw new ConfigError(unfinishedRestore);
  // Before the database (migrations and seed can take 20 s): a port in use is said at once, not after them.
  await checkPortFree(config.PORT, config.HOST);
  // A restore run from another host (its own DATA_DIR) marks the database and the bucket every node shares: both are
  // asked at once, before migrations, and answered in the order database, bucket. A database that cannot be reached
  // yet is left to openDatabase below, which says so in its own words; any other failure to read its marker refuses
  // here, before a migration could change a half-restored database (cannotConnectYet, db/restore-marker.ts).
  const storeReady = createDocumentStore(config);
  const [databaseCheck, bucketCheck] = await Promise.allSettled([
    config.DATABASE_URL ? postgresMarkerMessage(config.DATABASE_URL) : undefined,
    storeReady.then((store) => bucketMarkerMessage(store)),
  ]);
  if (databaseCheck.status === 'rejected' && !cannotConnectYet(databaseCheck.reason)) {
    const err = databaseCheck.reason;
    throw new ConfigError(`The PostgreSQL server in DATABASE_URL answered, but asking its database for the table restore_incomplete (the marker of an unfinished restore) failed: ${err?.code ? `${err.code} ` : ''}${err?.message ?? err}. Nothing was changed and no migration ran. Check DATABASE_URL (user, password, database name) and that its role may connect to that database.`);
  }
  if (databaseCheck.status === 'fulfilled' && databaseCheck.value) throw new ConfigError(databaseCheck.value);
  const store = await storeReady;
  if (bucketCheck.status === 'rejected') {
    const err = bucketCheck.reason;
    throw new ConfigError(`Could not open the document store (${store.kind}): asking the bucket for the object RESTORE-INCOMPLETE (HeadObject) failed: ${err?.name ?? 'Error'}: ${err?.message ?? err}. Check the S3_* settings; the nodes' credentials need s3:GetObject and s3:ListBucket on the bucket (without ListBucket, S3 answers 403 instead of 404 for a missing object).`);
  }
  if (bucketCheck.value) throw new ConfigError(bucketCheck.value);
  let database: Database;
  try {
    database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir });
  } catch (err: any) {
    // Already in an operator's words: documents without a database, a database of a newer release.
    if (err instanceof ConfigError) throw err;
    if (err instanceof MigrationError) {
      throw new ConfigError(`The ${config.DATABASE_URL ? 'PostgreSQL database in DATABASE_URL was reached' : `embedded database in ${config.dataDir} was opened`}, but a migration failed: ${err.message}. `
        + 'Its tables may have been changed by hand or by another program; the server log of the node that created them may say more.');
    }
    throw new ConfigError(config.DATABASE_URL
      ? `Could not connect to the PostgreSQL server in DATABASE_URL (${err?.message ?? err}). Check DATABASE_URL, or unset it to use the embedded database.`
      : `Could not open the embedded database in ${config.dataDir} (${err?.message ?? err}). Check DATA_DIR.`);
  }
  try {
    // Also after opening (the embedded database, and a PostgreSQL one marked since the check above).
    const inDatabase = await databaseMarkerMessage((sql, params) => database.pool.query(sql, params), database.kind === 'postgres' ? POSTGRES_DATABASE : embeddedDatabase(config.dataDir));
    if (inDatabase) throw new ConfigError(inDatabase);
    // One node at a time (a PostgreSQL advisory lock): the seed checks then inserts, ensureAdmin finds then creates.
    await database.exclusive(async () => {
      config.sessionSecret = await resolveSessionSecret(database.db, config.SESSION_SECRET, { rotate: config.SESSION_SECRET_ROTATE, shared: database.kind === 'postgres' });
      const filled = await seed(database.db);
      if (filled.length) console.info(`[seed] loaded ${filled.join(', ')}`);
      if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
        const admin = await ensureAdmin(database.db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
        console.info(`[admin] admin account ready (user ${admin.id})`);
      } else if (!(await hasAdmin(database.db))) {
        console.info('[admin] no admin account yet: to use the admin portal, start with ADMIN_EMAIL and ADMIN_PASSWORD set, or run npm run admin:create (README)');
      }
    });
  } catch (err) {
    await database.close();
    throw err;
  }
  try {
    await store.init();
  } catch (err: any) {
    await database.close();
    throw new ConfigError(`Could not open the document store (${store.kind}): ${err?.message ?? err}. Check DATA_DIR or the S3_* settings.`);
  }
  const mailer = opts.mailer ?? (config.SMTP_URL ? smtpMailer(config.SMTP_URL, config.MAIL_FROM, smtpSettings(config)) : fileMailer(path.join(config.dataDir, 'outbox'), config.MAIL_FROM));

  let port = config.PORT;
  const log = (m: string) => console.info(`[${new Date().toISOString()}] ${m}`);
  const builder = new SiteBuilder({
    db: database.db, dataDir: config.dataDir, debounceMs: config.SITE_BUILD_DEBOUNCE_MS, hookUrl: config.SITE_BUILD_HOOK_URL,
    enabled: config.SITE_BUILD !== 'never',
    apiUrl: () => `http://127.0.0.1:${port}`, log,
    hookClaim: { claim: () => claimHookForCurrentVersion(database.db), release: (v) => releaseHookClaim(database.db, v) },
    // Nodes on one S3 store build each change once and share it (issue #13); a local store is one node's own.
    share: store.kind === 's3' && !config.SITE_BUILD_HOOK_URL ? createBuildShare({ db: database.db, store, log }) : undefined,
  });
  // Every node hears every content change (its own included) through PostgreSQL and rebuilds its copy (issue #13).
  const contentWatcher = await startContentWatcher(database, { pollMs: config.CONTENT_POLL_MS, log });
  contentWatcher.onChange((version, source) => {
    if (config.SITE_BUILD !== 'never') builder.schedule(`content version ${version} (${source})`);
  });
  let stopping = false;
  let documents: { checked: number; missing: number } | null = null;
  const app = createApp({ database, config, mailer, store, site: builder, builder, contentWatcher, onContentChanged: () => { void contentWatcher.check(); }, stopping: () => stopping, documents: () => documents });
  // Responses not yet finished, for the graceful stop.
  const inFlight = new Set<ServerResponse>();
  // Set once a stop is past its grace period: requests still arriving (connections already in the accept queue, keep-alive
  // ones) get a 503 with Connection: close for SHUTDOWN_REFUSE_MS instead of a reset.
  let refusing = false;
  const server = await new Promise<Server>((resolve, reject) => {
    const s = http.createServer((req, res) => {
      if (refusing) { refuse(res); return; }
      app(req, res);
    });
    // Node's default closes an idle keep-alive connection after 5 s, so a client or balancer reusing it just then
    // met a reset (ECONNRESET in CI). Idle connections stay open longer than common balancer idle timeouts.
    s.keepAliveTimeout = KEEP_ALIVE_MS;
    s.headersTimeout = KEEP_ALIVE_MS + 1000;
    const failed = (err: NodeJS.ErrnoException) => { void database.close().catch(() => {}); reject(listenError(err, config.PORT, config.HOST)); };
    s.once('error', failed);
    s.listen(config.PORT, config.HOST, () => { s.off('error', failed); resolve(s); });
    s.on('request', (req: IncomingMessage, res: ServerResponse) => {
      inFlight.add(res);
      res.once('close', () => inFlight.delete(res));
      const started = performance.now();
      res.once('finish', () => { if (res.statusCode >= 500) logServerError(req, res.statusCode, performance.now() - started); });
    });
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${port}`;
  console.info(`[server] API listening on ${url} (${database.kind}) after ${Date.now() - t0} ms`);
  // In the background (one stat or HeadObject per row): a database restored without its documents is said at once.
  const documentCheck = checkDocuments(database.db, store, { limit: STARTUP_DOCUMENT_CHECK_ROWS }).then((c) => {
    documents = documentCheckSummary(c);
    if (c.missing.length) console.warn(`[documents] WARNING: ${c.missing.length} of ${c.checked} documents checked are missing from ${describeStore(store)}; their downloads answer 404. Restore them with the database's backup; npm run check:documents lists every missing one.`);
    return c;
  }, (err) => { console.error(`[documents] start-up check failed: ${describeErrorForLog(err)}`); return null; });

  const noPublicUrl = publicUrlWarning(config);
  if (noPublicUrl) console.warn(noPublicUrl);
  const notSending = fileDriverWarning(config);
  if (notSending) console.warn(notSending);
  // A wrong SMTP_URL or a relay that is down shows in the log at start, not only as mail that never arrives; never
  // blocks the start (the outbox keeps the mail and retries for about a day).
  mailer.verify?.().then(
    () => console.info('[mail] SMTP server reachable (SMTP_URL checked)'),
    (err) => console.warn(`[mail] WARNING: the SMTP server in SMTP_URL does not accept us (${describeSendError(err)}); mail waits in the outbox and is retried.`));
  const stopMail = startMailWorker(database.db, mailer);
  // The origin of links in SMS the worker queues itself (a Documents Required SMS a failed rejection SMS stood for).
  const stopSms = startSmsWorker(database.db, smsDriverFromConfig(config), 1000, { origin: siteOrigin(config) });
  const purge = () => purgeOrphanUploads(database.db, store)
    .then((n) => { if (n) console.info(`[uploads] erased ${n} abandoned upload(s)`); })
    .catch((err) => console.error(`[uploads] purge failed: ${describeErrorForLog(err)}`))
    .then(() => purgeAbandonedTusUploads(config))
    .then((n) => { if (n) console.info(`[uploads] purged ${n} unfinished resumable upload(s) older than 24 h`); })
    .catch((err) => console.error(`[uploads] tus purge failed: ${describeErrorForLog(err)}`))
    .then(() => retentionSweep(database.db));
  let purging = purge();
  const purgeTimer = setInterval(() => { purging = purge(); }, 3600_000);
  purgeTimer.unref();
  const siteReady = config.SITE_BUILD === 'never' ? Promise.resolve()
    : config.SITE_BUILD === 'always' ? builder.buildNow('start-up', { force: true }) : builder.ensureBuilt().then(() => undefined);
  if (config.SITE_BUILD !== 'never' && !config.SITE_BUILD_HOOK_URL) builder.watchYear();
  // A first build stopped by a shutdown, or failed (retried later), settles too: then there is no site to announce.
  const announce = siteReady.then(() => {
    if (stopping || !(config.SITE_BUILD === 'never' || config.SITE_BUILD_HOOK_URL || builder.dir())) return;
    console.info(`[server] site ready at ${url} after ${Date.now() - t0} ms`);
  });
  if (opts.waitForSite) await announce;

  const drain = async () => {
    stopping = true;
    if (config.SHUTDOWN_GRACE_MS > 0) {
      log(`stopping: health answers 503 for ${config.SHUTDOWN_GRACE_MS} ms, then no new connections`);
      await sleep(config.SHUTDOWN_GRACE_MS);
    }
    // Still listening a moment, answering 503 + Connection: close: a request that reached the node just now (12 parallel
    // submits, SIGTERM 0.1 s later: 9 of them were reset on PGlite) is told to retry, not cut.
    refusing = true;
    await sleep(SHUTDOWN_REFUSE_MS);
    const closed = new Promise<void>((resolve) => { server.close(() => resolve()); });
    server.closeIdleConnections();
    const deadline = Date.now() + config.SHUTDOWN_TIMEOUT_MS;
    while (inFlight.size > 0 && Date.now() < deadline) await sleep(Math.min(50, Math.max(1, deadline - Date.now())));
    if (inFlight.size > 0) console.warn(`[server] ${inFlight.size} request(s) still running after SHUTDOWN_TIMEOUT_MS (${config.SHUTDOWN_TIMEOUT_MS} ms): their connections are closed`);
    server.closeAllConnections();
    await closed;
  };
  let closing: Promise<void> | null = null;
  return {
    url, server, database, store, builder, contentWatcher, config, documentCheck,
    close: () => closing ??= (async () => {
      // First: a build in progress is aborted (a rebuild finishing during the stop would be thrown away anyway) and
      // recorded as stopped, before its child process could die of the same signal and be recorded as a failure.
      builder.stop();
      await drain();
      // Work left running after an answer (a reset link's token and outbox row: features/auth/after-answer.ts)
      // commits before the mail worker and the database stop.
      await bounded(afterAnswerSettled(), config.SHUTDOWN_TIMEOUT_MS, 'the work left after answers (reset links)');
      clearInterval(purgeTimer);
      await purging;
      await documentCheck;
      await contentWatcher.close();
      // A send in progress gets SHUTDOWN_TIMEOUT_MS to end; one that hangs is abandoned (its lease, 60 s, lets this or
      // another node send it again: at least once).
      await bounded(stopMail(), config.SHUTDOWN_TIMEOUT_MS, 'the mail worker');
      // The pooled SMTP connections (mail/transport-options.ts) stay open between batches: closed once nothing sends.
      if (!opts.mailer) await mailer.close?.();
      await bounded(stopSms(), config.SHUTDOWN_TIMEOUT_MS, 'the SMS worker');
      await bounded(builder.idle(), config.SHUTDOWN_TIMEOUT_MS, 'the site build');
      await database.close();
    })(),
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * How long (ms) an idle keep-alive connection stays open between requests: 65 s, above the 60 s idle timeout of
 * common load balancers (AWS ALB's default), so a balancer or client never reuses a connection the node is closing at
 * that moment (with Node's default of 5 s such requests were reset: CI's ECONNRESET on a Playwright request context
 * idle for a few seconds). Sent to clients as `Keep-Alive: timeout=65`.
 * The header timeout is one second longer (Node: headersTimeout applies to the next request on the connection too).
 */
export const KEEP_ALIVE_MS = 65_000;

/**
 * How long (ms) a stopping node, past SHUTDOWN_GRACE_MS, keeps listening while answering every new request 503
 * (refuse) before it closes its socket, so connections already accepted are answered rather than reset (operations
 * audit). Requests already running are not affected and finish (SHUTDOWN_TIMEOUT_MS).
 */
export const SHUTDOWN_REFUSE_MS = 300;

/**
 * One log line per 5xx response (operations audit): "[http] 503 POST /api/auth/register 12 ms", with Express's route
 * pattern (`/api/applications/:id`) when the request reached a route, else the path without its query (no personal data).
 */
function logServerError(req: IncomingMessage, status: number, ms: number): void {
  const r = req as IncomingMessage & { baseUrl?: string; route?: { path?: unknown } };
  const route = typeof r.route?.path === 'string' ? `${r.baseUrl ?? ''}${r.route.path}` : String(req.url ?? '').split('?')[0];
  console.warn(`[http] ${status} ${req.method} ${route} ${Math.round(ms)} ms`);
}

/** The answer to a request reaching a stopping node: 503 `unavailable`, Retry-After 5 s, Connection: close. */
function refuse(res: ServerResponse): void {
  const body = JSON.stringify({ error: { code: 'unavailable', message: 'The server is restarting. Please try again shortly.' } });
  res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'retry-after': '5', connection: 'close', 'cache-control': 'no-store' });
  res.end(body);
}

/**
 * Waits for `work` at most `ms` ms (a stop must not hang on a hung SMTP relay or build); past that, logs that `what`
 * is abandoned and resolves. A rejection of `work` is logged, never thrown.
 */
async function bounded(work: Promise<unknown>, ms: number, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => { timer = setTimeout(() => resolve('late'), ms); timer.unref?.(); });
  const done = work.then(() => 'done' as const, (err) => { console.error(`[server] stopping ${what} failed: ${err?.message ?? err}`); return 'done' as const; });
  const outcome = await Promise.race([done, late]);
  clearTimeout(timer);
  if (outcome === 'late') console.warn(`[server] ${what} did not stop within SHUTDOWN_TIMEOUT_MS (${ms} ms): abandoned`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  startServer().then((s) => {
    const stop = async (sig: string) => { console.info(`[server] ${sig}: shutting down`); await s.close(); process.exit(0); };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  }).catch((err) => {
    if (err instanceof ConfigError) { console.error(`\nCannot start: ${err.message}\n`); process.exit(1); }
    console.error(err);
    process.exit(1);
  });
}
