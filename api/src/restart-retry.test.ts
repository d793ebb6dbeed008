/**
 * A Submit during a rolling restart (QA, 2 nodes behind HAProxy): the balancer sends it to a node that has just begun
 * its graceful stop, whose refusal (503 `unavailable`, Retry-After, before the body is read: server.ts refuse) the
 * site's saveApi (site/islands/ui/save-api.ts) sends again after Retry-After; the balancer then sends it to a live
 * node, and the application is stored once. Real nodes (startServer), a small balancer in this file: the first
 * submit goes to node A, stopped in the same turn; later requests go to the other node — node B on the same
 * PostgreSQL database with DATABASE_URL, else A restarted on its DATA_DIR (the embedded database is one process).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { startServer, type RunningServer } from './server.ts';
import { freshPostgres, validApplication, validRegistration } from './test/harness.ts';
import { applications, uploads } from './db/schema/applications.ts';
import { ApiError } from '../../site/lib/api-client.ts';
import { saveApi, refusalRetryMs } from '../../site/islands/ui/save-api.ts';

const dirs: string[] = [];
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });

interface Hop { to: 'A' | 'B'; status: number; retryAfter: string | null; bodySent: boolean; body: any }

/**
 * A balancer on a free port: the first POST /api/applications goes to `a`, whose stop (close) begins in the same turn
 * as the request's headers are sent to it over a connection it has already accepted, and its body is never sent (a
 * refusal comes before the body is read). Every other request waits for `b()` and goes there whole. `hops` records
 * the answers.
 */
async function balancer(a: RunningServer, b: () => Promise<string>) {
  const hops: Hop[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let firstSubmit = true;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const headers = { ...req.headers, host: '127.0.0.1' };
    const toA = firstSubmit && req.method === 'POST' && req.url === '/api/applications';
    if (toA) firstSubmit = false;
    const target = toA ? a.url : await b();
    const upstream = http.request(`${target}${req.url}`, { method: req.method, headers, agent: toA ? agent : undefined });
    let bodySent = false;
    if (toA) {
      // Headers only: a node that read bodies while stopping would wait here for ever (the test times out).
      void a.close();
      upstream.flushHeaders();
    } else {
      bodySent = true;
      upstream.end(body);
    }
    upstream.on('error', (err) => { hops.push({ to: toA ? 'A' : 'B', status: 0, retryAfter: null, bodySent, body: String(err) }); res.destroy(); });
    upstream.on('response', (answer) => {
      const got: Buffer[] = [];
      answer.on('data', (d: Buffer) => got.push(d));
      answer.on('end', () => {
        const text = Buffer.concat(got).toString('utf8');
        hops.push({ to: toA ? 'A' : 'B', status: answer.statusCode ?? 0, retryAfter: (answer.headers['retry-after'] as string) ?? null, bodySent, body: text ? JSON.parse(text) : null });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(text);
        if (toA && !bodySent) upstream.destroy();
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  // The balancer's connection to A, opened and accepted before the stop (a health check over it).
  await new Promise<void>((resolve, reject) => http.get(`${a.url}/api/colfront/health`, { agent }, (r) => { r.resume(); r.on('end', resolve); }).on('error', reject));
  return { url, hops, close: () => new Promise<void>((r) => { agent.destroy(); server.close(() => r()); server.closeAllConnections(); }) };
}

it('a Submit refused by a node that began its graceful stop is sent again by saveApi and stored once, on the live node', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'college-restart-retry-'));
  dirs.push(dataDir);
  const pgdb = process.env.DATABASE_URL ? await freshPostgres(process.env.DATABASE_URL) : null;
  const env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SITE_BUILD: 'never', SESSION_SECRET: 'restart-retry-secret-0123456789', SHUTDOWN_GRACE_MS: '0', ...(pgdb ? { DATABASE_URL: pgdb.url } : {}) };
  const a = await startServer(env);
  let b: RunningServer | null = null;
  let lb: Awaited<ReturnType<typeof balancer>> | null = null;
  try {
    // Node B: beside A on PostgreSQL; on the embedded database, A again once its stop has finished.
    const second = pgdb
      ? startServer({ ...env, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'college-restart-retry-b-')) })
      : null;
    let restarted: Promise<RunningServer> | null = null;
    const bUrl = async () => {
      b ??= await (second ?? (restarted ??= a.close().then(() => startServer(env))));
      return b.url;
    };
    lb = await balancer(a, bUrl);

    const registration = validRegistration();
    const email = registration.email;
    const reg = await fetch(`${a.url}/api/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(registration) });
    expect(reg.status).toBe(201);
    const { user, token } = await reg.json() as { user: { id: number }; token: string };
    const docs: Record<string, string> = {};
    for (const slot of ['idDocument', 'transcripts']) {
      const id = crypto.randomBytes(12).toString('base64url');
      await a.database.db.insert(uploads).values({ id, userId: user.id, originalName: `${slot}.pdf`, storedName: `${id}.pdf`, mime: 'application/pdf', size: 1234 });
      docs[slot] = id;
    }

    const submitted = await saveApi<{ application: { id: number } }>(`${lb.url}/api/applications`, {
      method: 'POST', json: { ...validApplication(1, docs as { idDocument: string; transcripts: string }), email }, headers: { Authorization: `Bearer ${token}` },
    }).catch((e: unknown) => e);

    // A refused it before reading it: 503 'The server is restarting' with Retry-After, answered before the body was sent.
    expect(lb.hops[0]).toMatchObject({ to: 'A', status: 503, bodySent: false, body: { error: { code: 'unavailable', message: 'The server is restarting. Please try again shortly.' } } });
    expect(lb.hops[0]!.retryAfter).toMatch(/^\d+$/);
    // …and saveApi sent it again: the live node stored it, once.
    expect(submitted).not.toBeInstanceOf(ApiError);
    expect(refusalRetryMs(503, lb.hops[0]!.body, lb.hops[0]!.retryAfter)).toBeGreaterThan(0);
    expect(lb.hops.slice(1)).toMatchObject([{ to: 'B', status: 201, bodySent: true }]);
    expect((submitted as { application: { id: number } }).application.id).toBe(lb.hops[1]!.body.application.id);
    const live = b as RunningServer | null;
    const [stored] = await live!.database.db.select({ n: count() }).from(applications).where(eq(applications.userId, user.id));
    expect(stored!.n).toBe(1);
  } finally {
    await lb?.close();
    await a.close();
    await (b as RunningServer | null)?.close();
    await pgdb?.drop();
  }
}, 300_000);
