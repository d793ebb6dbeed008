/**
 * POST /api/applications with a large body (spec §7 data URLs; security audit 2026-11-28, MEDIUM): the 28 MB body is
 * read only after the caller is known, one at a time per user and a few at a time per node; the checks the global
 * chain runs (nesting depth, storable text) still run on it. Security audit 2026-11-28 (LOW): a body holding a slot
 * must keep a minimum pace (BodyPace), so a trickle loses its slot (408) and a body sent at a normal rate gets through.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, signUpStudent, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { errorHandler } from '../../http/error-handler.ts';
import { MAX_LARGE_BODIES, TOO_SLOW_MESSAGE, largeBodySlots, largeSubmitBody, submitBodyPace, submitBodySlots, type BodyPace } from './large-body.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

interface Pending { answer: Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }>; finish(): void; abort(): void }

/**
 * A POST whose headers announce `length` bytes of JSON but which sends only its first `sent` bytes until finish()
 * (the rest, padding inside a string) or abort(): a body still arriving, as a slow upload on a phone is.
 */
function slowPost(path: string, length: number, headers: Record<string, string> = {}, sent = 16): Pending {
  const head = '{"pad":"';
  const tail = '"}';
  const u = new URL(t.url + path);
  const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(length), ...headers } });
  const answer = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => { const text = Buffer.concat(chunks).toString(); let body: any = text; try { body = JSON.parse(text); } catch { /* not JSON */ } resolve({ status: res.statusCode ?? 0, headers: res.headers, body }); });
    });
    req.on('error', reject);
  });
  answer.catch(() => {}); // an aborted request that was never awaited
  req.write(head + 'x'.repeat(sent - head.length));
  return {
    answer,
    finish: () => { req.end('x'.repeat(length - sent - tail.length) + tail); },
    abort: () => { req.destroy(); },
  };
}

const MB = 1024 * 1024;

describe(`POST /api/applications large bodies (${DB_KIND})`, () => {
  it('an anonymous 27 MB body is answered 401 before its body is read (the body never arrives here)', async () => {
    const p = slowPost('/api/applications', 27 * MB);
    const res = await p.answer;
    p.abort();
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: 'unauthorized', message: 'Authentication required' } });
    const colfront = slowPost('/api/colfront/applications/', 27 * MB);
    expect((await colfront.answer).status).toBe(401);
    colfront.abort();
  });

  it('a cross-origin body with a cookie is refused 403 before its body is read', async () => {
    const p = slowPost('/api/applications', 27 * MB, { cookie: 'college.sid=whatever', origin: 'https://evil.example' });
    const res = await p.answer;
    p.abort();
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('cross_origin');
  });

  it('a signed-in body over 200 kB is read (400 for its content, not 413); over 28 MB is still 413 payload_too_large', async () => {
    const s = await signUpStudent(t);
    const mid = await s.agent.post('/api/applications').send({ courseId: 1, pad: 'x'.repeat(300 * 1024) });
    expect(mid.status, JSON.stringify(mid.body).slice(0, 300)).toBe(400);
    expect(mid.body.error.code).toBe('validation_error');
    const huge = await s.agent.post('/api/applications').send({ pad: 'x'.repeat(29 * MB) });
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ error: { code: 'payload_too_large', message: 'The request body is too large' } });
  });

  it('the large body gets the global checks: nesting depth (400 invalid_json) and unstorable text (400 naming the field)', async () => {
    const s = await signUpStudent(t);
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    const tooDeep = await s.agent.post('/api/applications').send({ courseId: 1, deep, pad: 'x'.repeat(300 * 1024) });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.error).toEqual({ code: 'invalid_json', message: 'The request body is nested too deeply' });
    const nul = await s.agent.post('/api/applications').send({ courseId: 1, firstName: 'A\u0000', pad: 'x'.repeat(300 * 1024) });
    expect(nul.status).toBe(400);
    expect(nul.body.error.fields).toEqual({ firstName: 'This text contains a character that cannot be saved. Please remove it and try again.' });
  });

  it('one large body per user at a time (429 + Retry-After) and at most MAX_LARGE_BODIES per node (503 + Retry-After); slots come back', async () => {
    const users = await Promise.all(Array.from({ length: MAX_LARGE_BODIES + 1 }, () => signUpStudent(t)));
    const bearer = (i: number) => ({ authorization: `Bearer ${users[i].token}` });
    /** Waits until this node reads exactly `n` large bodies (a request's headers travel before it takes its slot). */
    const inFlight = async (n: number) => { while (submitBodySlots.inFlight() !== n) await new Promise((r) => setTimeout(r, 10)); };
    /** A whole large body (it is never left holding a slot): its answer. */
    const whole = async (i: number) => { const p = slowPost('/api/applications', 300 * 1024, bearer(i)); p.finish(); return p.answer; };
    await inFlight(0);
    const first = slowPost('/api/applications', 3 * MB, bearer(0));
    await inFlight(1);
    const second = await whole(0);
    expect(second.status).toBe(429);
    expect(second.headers['retry-after']).toMatch(/^\d+$/);
    expect(second.body.error).toEqual({ code: 'too_many_requests', message: 'Your previous submission with documents is still being received. Please wait for it to finish, then try again.' });
    // A small body of the same user is not held up by the large one (it is validated: 400 here).
    const small = await users[0].agent.post('/api/applications').send({ courseId: 1 });
    expect(small.status).toBe(400);

    const others = Array.from({ length: MAX_LARGE_BODIES - 1 }, (_, i) => slowPost('/api/applications', 3 * MB, bearer(i + 1)));
    await inFlight(MAX_LARGE_BODIES);
    const busy = await whole(MAX_LARGE_BODIES);
    expect(busy.status).toBe(503);
    expect(busy.headers['retry-after']).toMatch(/^\d+$/);
    expect(busy.body.error).toEqual({ code: 'busy', message: 'The server is busy receiving other applications with documents. Please try again in a few seconds.' });

    // The first body arrives (400: it is no application) and an aborted one gives its slot back too.
    first.finish();
    expect((await first.answer).status).toBe(400);
    for (const o of others) o.abort();
    await inFlight(0);
    const again = await whole(MAX_LARGE_BODIES);
    expect(again.status).toBe(400);
  });
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: any };

/**
 * POSTs `body` (JSON text) to `url` in pieces of `chunk` bytes, one every `everyMs` ms, with its whole length announced;
 * stops sending once the server answers. `answer` is that answer; `closed` settles when the connection is gone.
 */
function paced(url: string, body: string, chunk: number, everyMs: number, headers: Record<string, string> = {}): { answer: Promise<Answer>; closed: Promise<void>; abort: () => void } {
  const bytes = Buffer.from(body);
  const u = new URL(url);
  const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(bytes.length), ...headers } });
  let sent = 0;
  const timer = setInterval(() => {
    const piece = bytes.subarray(sent, sent + chunk);
    sent += piece.length;
    if (sent >= bytes.length) { clearInterval(timer); req.end(piece); } else req.write(piece);
  }, everyMs);
  const closed = new Promise<void>((resolve) => { req.on('close', () => { clearInterval(timer); resolve(); }); });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      clearInterval(timer);
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => { const text = Buffer.concat(chunks).toString(); let json: any = text; try { json = JSON.parse(text); } catch { /* not JSON */ } resolve({ status: res.statusCode ?? 0, headers: res.headers, body: json }); });
    });
    req.on('error', reject);
  });
  answer.catch(() => {});
  return { answer, closed, abort: () => { clearInterval(timer); req.destroy(); } };
}

/** A valid application whose two documents are PDF data URLs of about `kb` kB each (spec §7): a large body. */
function applicationWithDocuments(kb: number): string {
  const pdf = `data:application/pdf;base64,${Buffer.from(`%PDF-1.4\n%${'x'.repeat(kb * 1024)}\n%%EOF\n`).toString('base64')}`;
  return JSON.stringify(validApplication(1, { idDocument: pdf, transcripts: pdf }));
}

/** Runs `fn` with submitBodyPace set to `pace` (the app's route reads it per request), then puts the default back. */
async function withPace<T>(pace: BodyPace, fn: () => Promise<T>): Promise<T> {
  const saved = { ...submitBodyPace };
  Object.assign(submitBodyPace, pace);
  try { return await fn(); } finally { Object.assign(submitBodyPace, saved); }
}

/** A short grace and frequent checks, so a test does not wait; the rate is the real one. */
const QUICK: BodyPace = { graceMs: 200, minBytesPerSecond: 16 * 1024, checkEveryMs: 50 };
/** Waits until this node reads exactly `n` large bodies. */
const inFlight = async (n: number) => { while (submitBodySlots.inFlight() !== n) await new Promise((r) => setTimeout(r, 10)); };

describe(`POST /api/applications large bodies keep a minimum pace (${DB_KIND})`, () => {
  it('bodies trickling 4 bytes at a time into every slot: one behind the pace is cut (408 request_timeout, Connection: close) while all are taken, so another user\'s body is read, not refused 503; nothing is stored, nothing is logged', async () => {
    const users = await Promise.all(Array.from({ length: MAX_LARGE_BODIES + 1 }, () => signUpStudent(t)));
    const bearer = (i: number) => ({ authorization: `Bearer ${users[i].token}` });
    const serverClosed: Promise<void>[] = [];
    const onRequest = (req: http.IncomingMessage) => { const socket = req.socket; serverClosed.push(new Promise((r) => { if (socket.destroyed) r(); else socket.once('close', () => r()); })); };
    t.server.on('request', onRequest);
    const error = vi.spyOn(console, 'error');
    const warn = vi.spyOn(console, 'warn');
    try {
      await withPace(QUICK, async () => {
        await inFlight(0);
        const body = applicationWithDocuments(300);
        const trickles = Array.from({ length: MAX_LARGE_BODIES }, (_, i) => paced(`${t.url}/api/applications`, body, 4, 20, bearer(i)));
        await inFlight(MAX_LARGE_BODIES);
        // Every slot taken: a trickle behind the pace loses its slot, and only until one is free again.
        const cut = await Promise.race(trickles.map((x) => x.answer));
        expect(cut.status).toBe(408);
        expect(cut.headers.connection).toBe('close');
        expect(cut.body).toEqual({ error: { code: 'request_timeout', message: TOO_SLOW_MESSAGE } });
        await inFlight(MAX_LARGE_BODIES - 1);
        // The freed slot takes another user's whole large body (400: it is no application), not a 503 busy.
        const other = paced(`${t.url}/api/applications`, JSON.stringify({ pad: 'x'.repeat(300 * 1024) }), 1 << 20, 1, bearer(MAX_LARGE_BODIES));
        expect((await other.answer).status).toBe(400);
        for (const x of trickles) x.abort();
        await inFlight(0);
        await Promise.all(serverClosed);
      });
      expect(error.mock.calls).toEqual([]);
      expect(warn.mock.calls).toEqual([]);
      for (const u of users.slice(0, MAX_LARGE_BODIES)) {
        const mine = await u.agent.get('/api/applications');
        expect(mine.status).toBe(200);
        expect(mine.body.applications).toEqual([]);
      }
    } finally {
      t.server.off('request', onRequest);
      error.mockRestore();
      warn.mockRestore();
    }
  });

  it('an application with data-URL documents sent at a normal rate past the grace is stored (201)', async () => {
    const s = await signUpStudent(t);
    const body = applicationWithDocuments(300);
    // 16 kB every 10 ms (about 1.6 MB/s, 100 × the minimum): the 800 kB body takes longer than QUICK's grace.
    const res = await withPace(QUICK, async () => paced(`${t.url}/api/applications`, body, 16 * 1024, 10, { authorization: `Bearer ${s.token}` }).answer);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
    const mine = await s.agent.get('/api/applications');
    expect(mine.body.applications).toHaveLength(1);
    await inFlight(0);
  });

  it('largeSubmitBody(slots, pace) uses the slots and pace it is given (fields left out keep the default)', async () => {
    const slots = largeBodySlots({ perUser: 1, total: 1 });
    const reached: unknown[] = [];
    const app = express();
    app.use((req, _res, next) => { req.user = { id: Number(req.headers['x-user']) } as any; next(); });
    app.post('/submit', ...largeSubmitBody(slots, { graceMs: 100, checkEveryMs: 25 }), (req, res) => { reached.push(req.body); res.status(201).json({ ok: true }); });
    app.use(errorHandler);
    const server = await new Promise<http.Server>((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/submit`;
      const body = JSON.stringify({ pad: 'x'.repeat(300 * 1024) });
      const trickle = paced(url, body, 4, 20, { 'x-user': '1' });
      const slow = await trickle.answer;
      expect(slow.status).toBe(408);
      expect(slow.body.error.code).toBe('request_timeout');
      expect(slots.inFlight()).toBe(0);
      expect(reached).toEqual([]);
      const fast = await paced(url, body, 16 * 1024, 5, { 'x-user': '2' }).answer;
      expect(fast.status).toBe(201);
      expect(reached).toHaveLength(1);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  it('a body below the pace is read to the end while a slot is free for the next one (a slow phone is not cut off); the same body is cut when every slot is taken', async () => {
    const reached: unknown[] = [];
    const serve = async (total: number, fn: (url: string) => Promise<void>) => {
      const app = express();
      app.use((req, _res, next) => { req.user = { id: Number(req.headers['x-user']) } as any; next(); });
      // 1 MB/s asked; the body comes at about 16 kB per 40 ms (≈ 400 kB/s), so it is behind from the first check.
      app.post('/submit', ...largeSubmitBody(largeBodySlots({ perUser: 1, total }), { graceMs: 50, minBytesPerSecond: 1 << 20, checkEveryMs: 25 }), (req, res) => { reached.push(req.body); res.status(201).json({ ok: true }); });
      app.use(errorHandler);
      const server = await new Promise<http.Server>((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
      try { await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}/submit`); } finally {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      }
    };
    const body = JSON.stringify({ pad: 'x'.repeat(300 * 1024) });
    await serve(2, async (url) => {
      expect((await paced(url, body, 16 * 1024, 40, { 'x-user': '1' }).answer).status).toBe(201);
    });
    expect(reached).toHaveLength(1);
    await serve(1, async (url) => {
      const cut = await paced(url, body, 16 * 1024, 40, { 'x-user': '1' }).answer;
      expect([cut.status, cut.body.error?.code]).toEqual([408, 'request_timeout']);
    });
    expect(reached).toHaveLength(1);
  });
});
