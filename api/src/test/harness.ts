/**
 * API test harness (DESIGN §5): `startTestApp()` runs createApp on port 0 against a fresh in-memory PGlite,
 * or — when DATABASE_URL is set — against a fresh database created on that PostgreSQL server and dropped
 * afterwards. Helpers create signed-in students and admins as supertest agents (cookie jars).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import supertest from 'supertest';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../db/client.ts';
import { seed } from '../db/seed.ts';
import { loadConfig, type Config } from '../config.ts';
import { createApp } from '../app.ts';
import type { AppDeps } from '../deps.ts';
import { memoryMailer } from '../mail/mailer.ts';
import { ensureAdmin } from '../features/auth/auth.service.ts';
import type { PublicUser } from '#contracts/auth.ts';
import type { ApplicationSubmit } from '#contracts/applications.ts';
import { createDocumentStore, type DocumentStore } from '../storage/document-store.ts';
import { afterAnswerSettled } from '../features/auth/after-answer.ts';

export interface TestApp {
  url: string;
  database: Database;
  /** The PostgreSQL URL of this test's database (unset on PGlite), for a second connection like another node's. */
  databaseUrl?: string;
  config: Config;
  mailer: ReturnType<typeof memoryMailer>;
  /** The document store the app uses (local under DATA_DIR/uploads, or S3 when `env` sets S3_BUCKET). */
  store: DocumentStore;
  deps: AppDeps;
  /** The Express app under test (the security suite enumerates its routes). */
  app: ReturnType<typeof createApp>;
  /** The HTTP listener serving `app` (a test can watch its requests and responses). */
  server: Server;
  /** Reasons passed to onContentChanged (site rebuild requests). */
  contentChanges: string[];
  request(): supertest.Agent;
  close(): Promise<void>;
}

/** Which database this run uses, for test names. */
export const DB_KIND = process.env.DATABASE_URL ? 'postgres' : 'pglite';

/**
 * A new empty database `t_<random hex>` on the PostgreSQL server of `url` (CREATE DATABASE through `url`): its URL, and
 * `drop()` to remove it (WITH (FORCE), so connections left open do not stop it). Throws when the server refuses.
 */
export async function freshPostgres(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

let template: Promise<Blob | undefined> | undefined;
/** The migrated PGlite data folder of this run (api/src/test/global-setup.ts), read once per worker; undefined on PostgreSQL. */
function migratedTemplate(): Promise<Blob | undefined> {
  return template ??= (async () => {
    const file = inject('pgliteTemplate');
    return file ? new Blob([await fs.promises.readFile(file)]) : undefined;
  })();
}

/**
 * A database of its own: in-memory PGlite started from the run's migrated template, or, when DATABASE_URL is set, a
 * new database on that server (its URL in `url`, for a second connection like another node's) that `close()` drops;
 * when opening or migrating it fails, it is dropped before the error is rethrown. For startTestApp and for tests that
 * run no app (the site-build tests): test files run two at a time, so on the server's shared `test` database one
 * file's builds were another file's "last build".
 */
export async function openTestDatabase(): Promise<Database & { url?: string }> {
  const pgUrl = process.env.DATABASE_URL;
  if (!pgUrl) return openDatabase({ template: await migratedTemplate() });
  const fresh = await freshPostgres(pgUrl);
  let database: Database;
  try {
    database = await openDatabase({ url: fresh.url });
  } catch (err) {
    await fresh.drop().catch(() => {});
    throw err;
  }
  return { ...database, url: fresh.url, close: async () => { await database.close(); await fresh.drop(); } };
}

/**
 * Starts the app on a random port for one test file on its own database (openTestDatabase: dropped on close on
 * PostgreSQL); a new temporary DATA_DIR (removed on close) unless `env` sets one; memory mailer; `env` overrides the
 * config; `opts.seed` (default true) loads the seed. When a step after opening the database fails, the database is
 * closed (and dropped) and the DATA_DIR removed before the error is rethrown.
 */
export async function startTestApp(env: Record<string, string> = {}, opts: { seed?: boolean } = {}): Promise<TestApp> {
  // Each test app has its own DATA_DIR (outbox, uploads): test files share a worker process (vitest `isolate: false`).
  const ownDataDir = env.DATA_DIR ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'college-test-'));
  const removeDataDir = () => { if (ownDataDir) fs.rmSync(ownDataDir, { recursive: true, force: true }); };
  let database: Database & { url?: string };
  let config: Config;
  try {
    config = loadConfig({ NODE_ENV: 'test', SESSION_SECRET: 'test-secret-test-secret-123', LOGIN_RATE_LIMIT: '1000', REGISTER_SOFT_LIMIT: '1000', DATA_DIR: ownDataDir ?? env.DATA_DIR, ...env } as any);
    database = await openTestDatabase();
  } catch (err) {
    removeDataDir();
    throw err;
  }
  try {
    if (opts.seed !== false) await seed(database.db);
    const mailer = memoryMailer();
    const store = await createDocumentStore(config);
    await store.init();
    const contentChanges: string[] = [];
    const deps: AppDeps = { database, config, mailer, store, onContentChanged: (r) => contentChanges.push(r) };
    const app = createApp(deps);
    const server: Server = await new Promise((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return {
      url, app, server, database, databaseUrl: database.url, config, mailer, store, deps, contentChanges,
      request: () => supertest.agent(url),
      close: async () => {
        await new Promise<void>((r) => { server.close(() => r()); server.closeAllConnections?.(); });
        await afterAnswerSettled(); // as server.ts's stop: reset links still being made commit first
        await database.close();
        removeDataDir();
      },
    };
  } catch (err) {
    await database.close().catch(() => {});
    removeDataDir();
    throw err;
  }
}

/**
 * A second API instance on the same database as `t` (issue #8 "Two instances"): its own Express app,
 * listener and in-process state, sharing only `t.deps` (database, config, mailer). Close it before `t`.
 */
export async function startSecondInstance(t: TestApp): Promise<{ url: string; request(): supertest.Agent; close(): Promise<void> }> {
  const app = createApp(t.deps);
  const server: Server = await new Promise((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    request: () => supertest.agent(url),
    close: () => new Promise<void>((r) => { server.close(() => r()); server.closeAllConnections?.(); }),
  };
}

let counter = 0;
/** A unique e-mail for this process. */
export const uniqueEmail = (prefix = 'student'): string => `${prefix}.${process.pid}.${Date.now()}.${++counter}@example.com`;

/** A simple-registration body: the spec §5 fields plus whatever a test adds. */
export interface RegistrationBody { firstName: string; lastName: string; email: string; password: string; confirmPassword: string; phone: string; terms: boolean; [k: string]: unknown }

/** A valid simple-registration body (spec §5 Registration form) with a unique e-mail; `overrides` replace fields. */
export const validRegistration = (overrides: Record<string, unknown> = {}): RegistrationBody => ({
  firstName: 'Thandi', lastName: 'Mokoena', email: uniqueEmail(), password: 'secret123', confirmPassword: 'secret123',
  phone: '0821234567', terms: true, ...overrides,
});

/** A signed-in client: its cookie agent, the user as the API returned it (PublicUser) and the bearer token. */
export interface SignedIn { agent: supertest.Agent; user: PublicUser; token: string }

/** Registers a student through the API; returns the signed-in agent, the user and the bearer token. */
export async function signUpStudent(t: TestApp, overrides: Record<string, unknown> = {}): Promise<SignedIn & { password: string; email: string }> {
  const agent = t.request();
  const body = validRegistration(overrides);
  const res = await agent.post('/api/auth/register').send(body);
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { agent, user: res.body.user, token: res.body.token as string, password: body.password as string, email: body.email as string };
}

/** Creates an admin and logs in; returns the signed-in agent. */
export async function signInAdmin(t: TestApp, email = uniqueEmail('admin'), password = 'admin-pass-123'): Promise<SignedIn> {
  await ensureAdmin(t.database.db, email, password);
  const agent = t.request();
  const res = await agent.post('/api/auth/login').send({ email, password });
  if (res.status !== 200) throw new Error(`admin login failed: ${res.status}`);
  return { agent, user: res.body.user, token: res.body.token as string };
}

/** A complete, valid application body for course `courseId` with the given upload ids. */
export function validApplication(courseId: number, documents: { idDocument: string; transcripts: string; [k: string]: string }): ApplicationSubmit & { courseId: number } {
  return {
    courseId, firstName: 'Thandi', lastName: 'Mokoena', email: 'thandi@example.com', phone: '0821234567',
    dateOfBirth: '2001-04-12', nationality: 'za', addressLine1: '12 Church Street', addressLine2: '', city: 'Thohoyandou',
    state: 'Limpopo', postalCode: '0950', country: 'za',
    academicHistory: { highSchool: { name: 'Mbilwi Secondary', city: 'Thohoyandou', country: 'South Africa', from: '2015', to: '2019', qualification: 'NSC', grade: '72%' } },
    documents, payment: { paymentMethod: 'card', cardNumber: '4242424242424242', cardExpiry: '12/28', cardCvc: '123', cardName: 'T Mokoena', paymentTerms: true },
    certification: true,
  };
}

/** Records an upload row owned by `userId` (no file on disk) and returns its id; for tests that do not exercise uploads. */
export async function insertUpload(t: TestApp, userId: number, name = 'doc.pdf'): Promise<string> {
  const { uploads } = await import('../db/schema/applications.ts');
  const id = crypto.randomBytes(12).toString('base64url');
  await t.database.db.insert(uploads).values({ id, userId, originalName: name, storedName: `${id}.pdf`, mime: 'application/pdf', size: 1234 });
  return id;
}

/**
 * Registers `firstName lastName` with `phone` (as typed) and applies for course 1 under the same name, with two
 * recorded uploads; returns the application's id and the student's e-mail. Throws when either step is refused.
 */
export async function studentApplies(t: TestApp, firstName: string, lastName: string, phone = '0821234567'): Promise<{ id: number; email: string }> {
  const s = await signUpStudent(t, { firstName, lastName, phone });
  const docs = { idDocument: await insertUpload(t, s.user.id), transcripts: await insertUpload(t, s.user.id) };
  const res = await s.agent.post('/api/applications').send({ ...validApplication(1, docs), email: s.email, firstName, lastName, phone });
  if (res.status !== 201) throw new Error(`apply failed ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.application.id, email: s.email };
}

/**
 * Every person of `people` (key → [first name, last name, phone as typed]) applies for course 1 with studentApplies, in
 * order; returns each one's application id and e-mail under its key. Throws when a step is refused.
 */
export async function peopleApply(t: TestApp, people: Record<string, [string, string, string?]>): Promise<{ ids: Record<string, number>; emails: Record<string, string> }> {
  const ids: Record<string, number> = {};
  const emails: Record<string, string> = {};
  for (const [key, [firstName, lastName, phone]] of Object.entries(people)) {
    const applied = await studentApplies(t, firstName, lastName, phone);
    ids[key] = applied.id;
    emails[key] = applied.email;
  }
  return { ids, emails };
}

/** The full Set-Cookie line of the session cookie ('college.sid=…; Path=/; HttpOnly; …'), or ''. */
export function sessionCookie(res: { headers: Record<string, any> }): string {
  const all = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  return all.find((c) => c.startsWith('college.sid=')) ?? '';
}

/**
 * Counts what the app asks the database: installs a drizzle logger on `t`'s database and returns `during(run)`, which
 * gives `run`'s result with the SQL text of every statement the app's code sent meanwhile (BEGIN/COMMIT left out:
 * PGlite opens its transactions without drizzle). The cookie session store's own statements (connect-pg-simple on
 * the pool) are not seen. Transactions copy the session's options, so both are set to reach statements inside them.
 */
export function statementCounter(t: TestApp): <T>(run: () => Promise<T>) => Promise<{ result: T; sql: string[] }> {
  let statements: string[] | null = null;
  const logger = { logQuery: (query: string) => { statements?.push(query); } };
  const session = (t.database.db as any).session;
  session.logger = logger;
  session.options.logger = logger;
  return async (run) => {
    statements = [];
    try {
      const result = await run();
      return { result, sql: statements.filter((q) => !/^(begin|commit)$/i.test(q.trim())) };
    } finally {
      statements = null;
    }
  };
}
