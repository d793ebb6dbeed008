/**
 * POST /api/applications with a large body (spec §7 data URLs; security audit 2026-11-28, MEDIUM): the 28 MB body is
 * read only after the caller is known, one at a time per user and a few at a time per node; the checks the global
 * chain runs (nesting depth, storable text) still run on it.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signUpStudent, DB_KIND, type TestApp } from '../../test/harness.ts';
import { MAX_LARGE_BODIES, submitBodySlots } from './large-body.ts';

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
