/**
 * startServer as an operator runs it: a graceful stop behind a balancer (health 503 first, requests in flight
 * finish) and several nodes starting at once on one empty PostgreSQL database.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from './server.ts';
import { ConfigError } from './config.ts';
import { enqueueMail } from './mail/outbox.ts';
import type { Mailer } from './mail/mailer.ts';
import { freshPostgres, validRegistration } from './test/harness.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms)); // only between polls of a condition
const dirs: string[] = [];
const tmpDir = () => { const d = fs.mkdtempSync(path.join(os.tmpdir(), 'college-server-')); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

/** POSTs `body` in two parts: the first now, the rest when `finish()` is called. Resolves with the status and JSON body. */
function slowPost(url: string, body: string) {
  const bytes = Buffer.from(body);
  const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(bytes.length) } });
  const done = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
      res.on('error', reject);
    });
  });
  req.write(bytes.subarray(0, 20));
  return { done, finish: () => req.end(bytes.subarray(20)) };
}

/** A client connection to `node` that the server has accepted (its 'connection' event has fired). */
async function acceptedConnection(node: RunningServer): Promise<net.Socket> {
  const accepted = new Promise<void>((resolve) => node.server.once('connection', () => resolve()));
  const socket = net.connect(Number(new URL(node.url).port), '127.0.0.1');
  await Promise.all([accepted, new Promise<void>((resolve, reject) => { socket.once('connect', resolve); socket.once('error', reject); })]);
  return socket;
}

/**
 * Writes a JSON POST on `socket` at once (synchronously) and resolves with the status, the Connection and Retry-After
 * headers and the JSON body once the server has closed the connection; rejects on a reset.
 */
function rawPost(socket: net.Socket, path: string, body: string) {
  const bytes = Buffer.from(body);
  const chunks: Buffer[] = [];
  const answer = new Promise<{ status: number; connection: string | null; retryAfter: string | null; body: any }>((resolve, reject) => {
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.once('error', reject);
    socket.once('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const lines = head!.split('\r\n');
      const header = (name: string) => lines.find((l) => l.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim() ?? null;
      resolve({ status: Number(lines[0]!.split(' ')[1]), connection: header('connection'), retryAfter: header('retry-after'), body: JSON.parse(rest.join('\r\n\r\n')) });
    });
  });
  socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${bytes.length}\r\n\r\n`);
  socket.write(bytes);
  return answer;
}

describe('graceful stop (SIGTERM) behind a balancer', () => {
  it('health answers 503 during the grace period, and a request in flight finishes with its normal status', async () => {
    // A long grace, so that a health call made right after close() is inside it however busy the machine is.
    const node = await startServer({ DATA_DIR: tmpDir(), PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'never', SESSION_SECRET: 'shutdown-test-secret-0123456789', SHUTDOWN_GRACE_MS: '5000' });
    expect((await fetch(`${node.url}/api/colfront/health`)).status).toBe(200);
    const arrived = new Promise<void>((resolve) => node.server.once('request', () => resolve()));
    const registration = slowPost(`${node.url}/api/auth/register`, JSON.stringify(validRegistration()));
    const outcome = registration.done.catch((err) => ({ status: 0, body: String(err?.code ?? err) }));
    await arrived; // the server has the request, its body half sent
    const closed = node.close();
    const health = await fetch(`${node.url}/api/colfront/health`).then(async (r) => ({ status: r.status, body: await r.json() }), (err) => ({ status: 0, body: String(err?.cause?.code ?? err) }));
    expect(health).toMatchObject({ status: 503, body: { status: 'STOPPING' } });
    // Past the grace period the node no longer accepts connections (server.close() called), but this request is still open.
    while (node.server.listening) await sleep(50);
    registration.finish();
    const res = await outcome;
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await closed;
    const after = await fetch(`${node.url}/api/colfront/health`).then((r) => r.status, () => 'refused');
    expect(after).toBe('refused');
  }, 120_000); // a start takes up to 25 s on a busy 2-core machine

  it('a mail send that hangs (a hung SMTP relay) holds the stop at most SHUTDOWN_TIMEOUT_MS', async () => {
    let sending!: () => void;
    const started = new Promise<void>((r) => { sending = r; });
    const hung: Mailer = { send: () => { sending(); return new Promise<void>(() => {}); } };
    const node = await startServer({ DATA_DIR: tmpDir(), PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'never', SESSION_SECRET: 'shutdown-test-secret-0123456789', SHUTDOWN_TIMEOUT_MS: '300' }, { mailer: hung });
    await enqueueMail(node.database.db, { to: 'hung@example.com', subject: 'Hello', text: 'x' });
    await started; // the worker is inside send()
    await node.close(); // used to wait for the send for ever (nodemailer: 10 min)
    expect(node.server.listening).toBe(false);
  }, 120_000);

  it('answers tell clients an idle keep-alive connection stays open 65 s (Keep-Alive: timeout=65, not Node\'s 5 s)', async () => {
    const node = await startServer({ DATA_DIR: tmpDir(), PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'never', SESSION_SECRET: 'keepalive-test-secret-0123456789' });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const health = await new Promise<{ status: number; keepAlive: string }>((resolve, reject) => {
      http.get(`${node.url}/api/colfront/health`, { agent }, (res) => { res.resume(); res.on('end', () => resolve({ status: res.statusCode ?? 0, keepAlive: String(res.headers['keep-alive']) })); }).on('error', reject);
    });
    expect(health).toMatchObject({ status: 200, keepAlive: 'timeout=65' });
    agent.destroy();
    await node.close();
  }, 120_000);

  it('on the embedded database (no grace period) a request arriving as the stop begins gets 503 + Connection: close, not a reset', async () => {
    const node = await startServer({ DATA_DIR: tmpDir(), PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'never', SESSION_SECRET: 'shutdown-test-secret-0123456789' });
    expect(node.config.SHUTDOWN_GRACE_MS).toBe(0);
    const warn = vi.spyOn(console, 'warn');
    // The connection is accepted before the stop and the request written in the same turn as close(): a fetch opened
    // after close() had to connect, be accepted and be read within SHUTDOWN_REFUSE_MS, which a loaded machine missed.
    const socket = await acceptedConnection(node);
    const closed = node.close();
    // The node used to stop listening in the same turn as close(): connections already accepted were reset
    // (12 parallel submits, SIGTERM 0.1 s later: 9 × ECONNRESET).
    const res = await rawPost(socket, '/api/auth/register', JSON.stringify(validRegistration()))
      .catch((err) => ({ status: 0, connection: null, retryAfter: null, body: String(err?.code ?? err) }));
    expect(res).toMatchObject({ status: 503, connection: 'close', retryAfter: '5', body: { error: { code: 'unavailable' } } });
    // Every 5xx answer is logged with method, route and duration.
    expect(warn.mock.calls.map((c) => c.join(' ')).some((l) => /^\[http\] 503 POST \/api\/auth\/register \d+ ms$/.test(l))).toBe(true);
    warn.mockRestore();
    await closed;
    expect(node.server.listening).toBe(false);
  }, 120_000);
});

describe.skipIf(!process.env.DATABASE_URL)('several nodes starting at once on one empty PostgreSQL database', () => {
  const admin = { ADMIN_EMAIL: 'admin@start.example', ADMIN_PASSWORD: 'Admin-pass-2026' };
  const nodeEnv = (url: string) => ({ DATABASE_URL: url, DATA_DIR: tmpDir(), PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'never', SESSION_SECRET: 'start-test-secret-0123456789', SHUTDOWN_GRACE_MS: '0', ...admin });

  it('all start: the schema, one seed (4 campuses, 14 courses) and one admin', async () => {
    const fresh = await freshPostgres(process.env.DATABASE_URL!);
    const started = await Promise.allSettled([0, 1, 2].map(() => startServer(nodeEnv(fresh.url))));
    const nodes = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const c = new pg.Client({ connectionString: fresh.url });
    try {
      expect(started.map((r) => (r.status === 'fulfilled' ? 'started' : String(r.reason?.message ?? r.reason)))).toEqual(['started', 'started', 'started']);
      await c.connect();
      const n = async (q: string) => Number((await c.query(q)).rows[0].n);
      expect(await n('select count(*) n from campuses')).toBe(4);
      expect(await n('select count(*) n from courses')).toBe(14);
      expect(await n(`select count(*) n from users where role = 'admin'`)).toBe(1);
    } finally {
      await c.end().catch(() => {});
      await Promise.all(nodes.map((s: RunningServer) => s.close()));
      await fresh.drop();
    }
  }, 60_000);

  it('a migration that fails on a server it reached is not reported as "Could not connect"', async () => {
    const fresh = await freshPostgres(process.env.DATABASE_URL!);
    const c = new pg.Client({ connectionString: fresh.url });
    await c.connect();
    // A table in the way of migration 0011 (app_secrets): the connection works, the migration cannot.
    await c.query('create table app_secrets (x int)');
    await c.end();
    try {
      const err = await startServer(nodeEnv(fresh.url)).then(async (s) => { await s.close(); return null; }, (e) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect(err.message).not.toMatch(/Could not connect/);
      expect(err.message).toMatch(/migration/i);
      expect(err.message).toMatch(/app_secrets/);
    } finally { await fresh.drop(); }
  }, 60_000);
});

/** Operations audit: start-up mistakes ended in raw stacks, and a port in use was said only after migrations and seed. */
describe('start-up mistakes are told as ConfigError', () => {
  const env = (over: Record<string, string>) => ({ PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'never', SESSION_SECRET: 'start-test-secret-0123456789', ...over });

  it('DATA_DIR that is a file: "DATA_DIR … is not a writable folder"', async () => {
    const file = path.join(tmpDir(), 'not-a-folder');
    fs.writeFileSync(file, 'x');
    const err = await startServer(env({ DATA_DIR: file })).then(() => null, (e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toMatch(/^DATA_DIR .*not-a-folder is not a writable folder: a file \(not a folder\) is in the way/);
  });

  it('PORT in use: "PORT … is already in use", before the database is opened', async () => {
    const busy = net.createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    const port = (busy.address() as net.AddressInfo).port;
    const dataDir = tmpDir();
    try {
      const err = await startServer(env({ DATA_DIR: dataDir, PORT: String(port) })).then((n) => n.close().then(() => null), (e) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect(err.message).toContain(`PORT ${port} is already in use`);
      expect(fs.readdirSync(dataDir)).toEqual([]); // no embedded database was created first
    } finally {
      await new Promise<void>((r) => busy.close(() => r()));
    }
  }, 120_000);
});

describe('the admin account at start-up', () => {
  it('a start without ADMIN_EMAIL on a database with no admin says how to make one; with the settings it makes one and the hint is gone', async () => {
    const dataDir = tmpDir();
    const info = vi.spyOn(console, 'info');
    const lines = () => info.mock.calls.map((c) => c.join(' ')).filter((l) => l.startsWith('[admin]'));
    try {
      const plain = await startServer({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'never', SESSION_SECRET: 'admin-hint-secret-0123456789abcd' });
      await plain.close();
      expect(lines()).toEqual(['[admin] no admin account yet: to use the admin portal, start with ADMIN_EMAIL and ADMIN_PASSWORD set, or run npm run admin:create (README)']);
      info.mockClear();
      const withAdmin = await startServer({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'never', SESSION_SECRET: 'admin-hint-secret-0123456789abcd', ADMIN_EMAIL: 'admin@college.example', ADMIN_PASSWORD: 'Admin-pass-2026' });
      await withAdmin.close();
      expect(lines()).toEqual([expect.stringMatching(/^\[admin\] admin account ready \(user \d+\)$/)]);
      info.mockClear();
      const again = await startServer({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'never', SESSION_SECRET: 'admin-hint-secret-0123456789abcd' });
      await again.close();
      expect(lines()).toEqual([]);
    } finally {
      info.mockRestore();
    }
  }, 120_000);
});
