/**
 * Fuzzing (ASVS 1.5.x input handling, 16.5.x errors): for every route enumerated from the router,
 * fast-check generates path parameters, query strings and JSON bodies (FUZZ_RUNS, default 15, runs per route, as an admin so
 * the handlers behind the guards are reached, plus anonymous runs for the auth routes).
 * No response may be a 5xx, and every 4xx must have the `{error:{code,message}}` shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import supertest from 'supertest';
import { startTestApp, DB_KIND, type TestApp } from '../test/harness.ts';
import { listRoutes, type RouteInfo } from './routes.ts';
import { makeAdmin, makeStudent, type Actor } from './actors.ts';

let t: TestApp;
let admin: Actor;
let student: Actor;
beforeAll(async () => {
  t = await startTestApp();
  [admin, student] = [await makeAdmin(t), await makeStudent(t)];
});
afterAll(async () => { await t?.close(); });

const nasty = fc.constantFrom('0', '-1', '1.5', '1e309', '99999999999999999999', '2147483648', 'NaN', 'null', '%00', "1' OR '1'='1", '../../etc/passwd', '%', '%E0%A4%A', '__proto__', 'constructor', ' ', '🎓', 'a'.repeat(300));
const paramValue = fc.oneof(nasty, fc.string({ maxLength: 40 }).map(encodeURIComponent), fc.integer().map(String));
const scalar = fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), nasty);
/** Raw request body text: mostly JSON, sometimes malformed. */
const body = fc.oneof(
  fc.dictionary(fc.oneof(fc.constantFrom('email', 'password', 'id', 'status', 'courseId', 'title', 'content', 'documents', 'role', '__proto__', 'key', 'firstName'), fc.string({ maxLength: 12 })), fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 8 }), scalar, { maxKeys: 3 })), { maxKeys: 6 }),
  fc.jsonValue({ maxDepth: 3 }),
).map((v) => JSON.stringify(v) ?? 'null');
const rawBody = fc.oneof({ weight: 9, arbitrary: body }, { weight: 1, arbitrary: fc.constantFrom('{"unterminated": ', '{"a":1}}', '\u0000', '') });
const query = fc.dictionary(fc.oneof(fc.constantFrom('all', 'status', 'q', 'page', 'limit', 'key', 'sort', 'mine', 'courseId'), fc.string({ maxLength: 8 })), fc.oneof(nasty, fc.string({ maxLength: 20 })), { maxKeys: 4 });

/** One fuzzed request; returns a failure description or null. */
async function fuzzOnce(r: RouteInfo, who: Actor | null, params: string[], q: Record<string, string>, b: string): Promise<string | null> {
  let i = 0;
  const url = r.path.replace(/:[A-Za-z0-9_]+/g, () => params[i++ % params.length] || 'x');
  const method = (r.method === 'ALL' ? 'get' : r.method.toLowerCase()) as 'get' | 'post' | 'put' | 'patch' | 'delete';
  let req = (who ? who.agent : supertest(t.url))[method](url).query(q);
  if (method !== 'get') {
    req = req.set('Content-Type', 'application/json').send(b);
  }
  const res = await req;
  if (res.status >= 500) return `${r.method} ${url} ?${JSON.stringify(q)} body ${b.slice(0, 200)} → ${res.status} ${res.text.slice(0, 200)}`;
  if (res.status >= 400 && !(typeof res.body?.error?.code === 'string' && typeof res.body?.error?.message === 'string')) {
    return `${r.method} ${url} → ${res.status} without the error shape: ${res.text.slice(0, 200)}`;
  }
  return null;
}

describe(`security: fuzzing (${DB_KIND})`, () => {
  it('V16.5.3 fuzzing › generated params, query strings and bodies on every route: no 5xx, every 4xx has the error shape', async () => {
    // Routes that end the fuzzing session run anonymously, so the admin stays signed in.
    const routes = listRoutes(t.app);
    expect(routes.length).toBeGreaterThan(10);
    const failures: string[] = [];
    for (const r of routes) {
      const destructive = /logout|delete|erase|password/.test(r.path);
      const who = destructive ? null : (r.path.startsWith('/api/admin') || r.path.startsWith('/api/external') ? admin : (r.method === 'GET' ? student : admin));
      await fc.assert(fc.asyncProperty(fc.array(paramValue, { minLength: 1, maxLength: 3 }), query, rawBody, async (params, q, b) => {
        const fail = await fuzzOnce(r, who, params, q, b);
        if (fail) failures.push(fail);
        return true;
      }), { numRuns: Number(process.env.FUZZ_RUNS ?? 15), seed: Number(process.env.FUZZ_SEED ?? 20261121) });
    }
    expect(failures.slice(0, 20), `${failures.length} fuzzed requests failed (FUZZ_SEED=${process.env.FUZZ_SEED ?? 20261121})`).toEqual([]);
    // The admin session survived the run: nothing the fuzzer sent signed it out or demoted it.
    expect((await admin.agent.get('/api/auth/me')).body.user?.role).toBe('admin');
  }, 240_000);
});
