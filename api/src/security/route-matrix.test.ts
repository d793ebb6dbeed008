/**
 * Route × role matrix (ASVS 8.2.1, 8.2.2, 8.3.1): every route enumerated from createApp's router is called
 * as another student (with A's ids), anonymously, as student A and as an admin, and the statuses must
 * follow the rule `classify()` gives it (policy.ts). Destructive routes (DELETE, logout) get fresh actors
 * and fresh rows so they cannot disturb the other checks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import { startTestApp, DB_KIND, type TestApp } from '../test/harness.ts';
import { listRoutes, type RouteInfo } from './routes.ts';
import { classify, type Rule } from './policy.ts';
import { anonymous, fillPath, makeWorld, OWNED_RESOURCES, resourceOf, type World } from './actors.ts';

let t: TestApp;
let routes: RouteInfo[];
let world: World;

beforeAll(async () => {
  t = await startTestApp();
  routes = listRoutes(t.app);
  world = await makeWorld(t);
});
afterAll(async () => { await t?.close(); });

const isDestructive = (r: RouteInfo) => r.method === 'DELETE' || /logout|delete|erase|deactivate/i.test(r.path);

async function call(client: supertest.Agent | ReturnType<typeof anonymous>, r: RouteInfo, ids: Record<string, string>) {
  const method = (r.method === 'ALL' ? 'get' : r.method.toLowerCase()) as 'get' | 'post' | 'put' | 'patch' | 'delete';
  const req = (client as any)[method](fillPath(r.path, ids)) as supertest.Test;
  const res = method === 'get' ? await req : await req.send({});
  return { status: res.status, body: res.body as any };
}

const hint = (r: RouteInfo, rule: Rule | null) => `${r.method} ${r.path} (rule: ${rule ? `${rule.access} — ${rule.why}` : 'none'}). `
  + 'If this route is meant to behave differently, classify it in api/src/security/policy.ts (DESIGN §4).';

function expectStatus(ok: boolean, r: RouteInfo, rule: Rule | null, who: string, res: { status: number; body: unknown }, want: string) {
  expect(ok, `${who} got ${res.status} ${JSON.stringify(res.body).slice(0, 200)}; expected ${want} for ${hint(r, rule)}`).toBe(true);
}

describe(`security: route × role matrix (${DB_KIND})`, () => {
  it('V8.1.1 › every enumerated route is classified by a rule (a new route cannot escape the matrix)', () => {
    const unclassified = routes.filter((r) => !classify(r));
    expect(unclassified.map((r) => `${r.method} ${r.path}`), 'These routes match no access rule. Classify each one in api/src/security/policy.ts (public / user / admin, DESIGN §4).').toEqual([]);
    expect(routes.length).toBeGreaterThan(10);
  });

  it('V8.2.1/V8.2.2 › anonymous, student A, student B (A\'s ids) and admin get what DESIGN §4 says on every route', async () => {
    const ordered = [...routes.filter((r) => !isDestructive(r)), ...routes.filter(isDestructive)];
    for (const r of ordered) {
      const rule = classify(r);
      if (!rule) continue; // reported by the test above
      const w = isDestructive(r) ? await makeWorld(t, { freshContent: true }) : world;
      const resource = resourceOf(r.path);
      const b = await call(w.b.agent, r, w.ids);
      const anon = await call(anonymous(t), r, w.ids);
      const a = await call(w.a.agent, r, w.ids);
      const admin = await call(w.admin.agent, r, w.ids);
      for (const [who, res] of [['student B', b], ['anonymous', anon], ['student A', a], ['admin', admin]] as const) {
        expectStatus(res.status < 500, r, rule, who, res, 'no 5xx');
        if (res.status >= 400) expectStatus(typeof res.body?.error?.code === 'string' && typeof res.body?.error?.message === 'string', r, rule, who, res, 'the {error:{code,message}} shape');
      }
      if (rule.access === 'public') {
        expectStatus(anon.status !== 403, r, rule, 'anonymous', anon, 'no 403 on a public route');
        if (r.method === 'GET' && !/\/me$/.test(r.path)) expectStatus(anon.status === 200, r, rule, 'anonymous', anon, '200 on a public read');
      } else if (rule.access === 'user') {
        expectStatus(anon.status === 401, r, rule, 'anonymous', anon, '401');
        expectStatus(a.status !== 401 && a.status !== 403, r, rule, 'student A', a, 'access (not 401/403)');
        expectStatus(admin.status !== 401, r, rule, 'admin', admin, 'not 401');
        if (resource && OWNED_RESOURCES.has(resource)) {
          // Validation may run before the ownership lookup: B may get the same 400 that A gets, never more.
          const okB = b.status === 404 || (b.status === 400 && a.status === 400);
          expectStatus(okB, r, rule, 'student B using A\'s ids', b, `404 (A got ${a.status})`);
        }
      } else {
        expectStatus(anon.status === 401, r, rule, 'anonymous', anon, '401');
        expectStatus(a.status === 403 && b.status === 403, r, rule, `student (A ${a.status}, B ${b.status})`, a, '403');
        expectStatus(admin.status !== 401 && admin.status !== 403, r, rule, 'admin', admin, 'access (not 401/403)');
      }
    }
  }, 180_000); // four callers on every route, one after another: over 60 s on a loaded 2-core machine
});
