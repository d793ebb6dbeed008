/**
 * `npm run test:scale` (issue #13 point 4): two nodes that share nothing but PostgreSQL and an S3 service,
 * behind HAProxy, as on two machines.
 * - nodes A and B: `api/src/server.ts` (bench/server-child.ts) with their own DATA_DIR, one throw-away
 *   PostgreSQL database (created and dropped here), documents in s3rver (started here, temp folder);
 * - HAProxy round-robin with health checks on /api/colfront/health (tests/scale/haproxy.ts).
 * Steps (the issue's list): register, log in, upload and apply through the balancer, then every document
 * downloads from both nodes; a course published on A is on B's API ≤ 2 s and on B's static page (≤ 30 s target, reported);
 * `kill -9` A during a 30 s load of 50 applicants: no acknowledged application lost, traffic moves to B,
 * A rejoins after restart. Then applications/s and p99 through the balancer with two nodes and with one.
 * Before the load: a hashed `/_astro/` file only one node's live build has (as during a rolling deploy) answers 200
 * on every request through the balancer (astro-retry.ts: HAProxy retries a 404 there on the other node), and nodes
 * whose health answers slowly stay in rotation (busy-health.ts).
 * Prints the figures and writes bench/out/scale.json. Exits 0 when every check passed, 1 otherwise; skips
 * (exit 0, with the reason) when PostgreSQL or haproxy is unavailable.
 * Env: DATABASE_URL (server to create the database on), SCALE_LOAD_SECONDS (30), SCALE_APPLICANTS (50).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { startChild, freshPgDatabase, tmpDataDir, client, applicationBody, percentile, fmt, PG_BASE, PDF_BYTES, ADMIN, ROOT, type Child } from '../../bench/lib.ts';
import { startS3Server } from '../../api/src/test/s3-server.ts';
import { HAPROXY, haproxyConfig, startHaproxy } from './haproxy.ts';
import { checkAstroFiles } from './astro-retry.ts';
import { checkBusyHealth } from './busy-health.ts';

const LOAD_SECONDS = Number(process.env.SCALE_LOAD_SECONDS ?? 30);
const APPLICANTS = Number(process.env.SCALE_APPLICANTS ?? 50);
const log = (m: string) => console.info(`[scale] ${m}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function canReachPostgres(): Promise<string | null> {
  const c = new pg.Client({ connectionString: PG_BASE, connectionTimeoutMillis: 3000 });
  try { await c.connect(); await c.end(); return null; } catch (err: any) { return err?.message ?? String(err); }
}
if (!fs.existsSync(HAPROXY)) { log(`SKIPPED: haproxy not found at ${HAPROXY} (apt-get install haproxy).`); process.exit(0); }
const pgProblem = await canReachPostgres();
if (pgProblem) { log(`SKIPPED: PostgreSQL not reachable at ${PG_BASE} (${pgProblem}); set DATABASE_URL.`); process.exit(0); }

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const p = (s.address() as net.AddressInfo).port; s.close(() => resolve(p)); });
  });
}

const checks: { name: string; ok: boolean; detail: string }[] = [];
const check = (name: string, ok: boolean, detail = '') => { checks.push({ name, ok, detail }); log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`); };

const t0 = Date.now();
const db = await freshPgDatabase('scale');
const s3 = await startS3Server({ bucket: 'college-scale' });
const tmp = tmpDataDir('college-scale');
const dirs = { a: tmpDataDir('college-scale-a'), b: tmpDataDir('college-scale-b') };
const ports = { a: await freePort(), b: await freePort(), lb: await freePort(), one: await freePort() };
// TRUST_PROXY=2: behind HAProxy (one hop) the load generator also stands in for 50 people at 50 addresses
// (its X-Forwarded-For), so the per-IP registration limit applies per simulated person. Production: 1.
const nodeEnv = (name: 'a' | 'b') => ({
  ...s3.env, DATABASE_URL: db.url, DATA_DIR: dirs[name], PORT: String(ports[name]), TRUST_PROXY: '2', PUBLIC_URL: `http://127.0.0.1:${ports.lb}`,
  SITE_BUILD: 'auto', SITE_BUILD_DEBOUNCE_MS: '500', DB_POOL_MAX: '10',
  // Nodes are stopped only at the end (A's outage is a kill -9): without this each stop waited out the default grace
  // (8 s with DATABASE_URL), close to bench/lib.ts's 10 s before SIGKILL.
  SHUTDOWN_GRACE_MS: '0',
});
const nodes: Partial<Record<'a' | 'b', Child>> = {};
let lb: Awaited<ReturnType<typeof startHaproxy>> | undefined;
const figures: Record<string, unknown> = { date: new Date().toISOString(), cores: (await import('node:os')).cpus().length };

async function waitFor<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs: number, everyMs = 100): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try { const v = await fn(); if (v) return v as T; } catch (err) { last = err; }
    await sleep(everyMs);
  }
  throw new Error(`timed out waiting for ${what}${last ? ` (${(last as Error).message})` : ''}`);
}
const siteReady = (url: string) => waitFor(`the static site at ${url}`, async () => (await fetch(`${url}/`)).status === 200, 300_000, 500);

try {
  nodes.a = await startChild(nodeEnv('a'));
  // Extra courses (one statement, one content change) so that 50 applicants can keep applying for 30 s.
  const sql = new pg.Client({ connectionString: db.url });
  await sql.connect();
  await sql.query(`insert into courses (title, description, tuition_fee, department, duration, start_date)
    select 'Scale Course ' || g, 'A course made by the scale test.', 'R 1 000', 'Business', 6, 'February 2027' from generate_series(1, 60) g`);
  nodes.b = await startChild(nodeEnv('b'));
  lb = await startHaproxy(haproxyConfig({ port: ports.lb, onePort: ports.one, nodes: [{ name: 'a', port: ports.a }, { name: 'b', port: ports.b }] }), tmp);
  const LB = `http://127.0.0.1:${ports.lb}`;
  const A = nodes.a.url; const B = nodes.b.url;
  await Promise.all([siteReady(A), siteReady(B)]);
  await Promise.all([A, B].map((u) => waitFor(`${u} to build with the extra courses`, async () => (await (await fetch(`${u}/courses`)).text()).includes('Scale Course 60'), 300_000, 500)));
  // Health answers 503 until a node has its site (api/src/features/health): HAProxy takes each node in after
  // `rise 2` good checks once its site is live, so wait until the balancer sends traffic to both.
  await waitFor('the balancer to route to both nodes', async () => {
    const seen = new Set<string | null>();
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${LB}/api/colfront/health`);
      await res.arrayBuffer();
      if (res.status === 200) seen.add(res.headers.get('x-served-by'));
    }
    return seen.has('a') && seen.has('b');
  }, 60_000, 250);
  figures.startupSeconds = Math.round((Date.now() - t0) / 1000);
  log(`two nodes up with their static sites after ${figures.startupSeconds} s (A ${A}, B ${B}, balancer ${LB})`);

  // 0. Nodes on different code: a chunk only one node's live build has (a page from A asks B for A's new chunk).
  const onlyOn: string[] = [];
  for (const name of ['a', 'b'] as const) {
    const live: string = JSON.parse(fs.readFileSync(path.join(dirs[name], 'site', 'current.json'), 'utf8')).dir;
    const file = `OnlyOn${name.toUpperCase()}.${Date.now()}.js`;
    fs.writeFileSync(path.join(live, '_astro', file), `export const node = '${name}';`);
    onlyOn.push(`/_astro/${file}`);
  }
  const astro = await checkAstroFiles(LB, onlyOn, 10);
  figures.astroFromEitherNode = astro;
  check('a hashed /_astro/ file that only one node has answers 200 on every request through the balancer', astro.every((r) => r.ok === 10),
    astro.map((r) => `${r.path}: ${r.ok}/10 (${JSON.stringify(r.statuses)})`).join('; '));

  // 0b. Both nodes slow to answer health at once (a deadline-day burst): the balancer keeps them (own small nodes).
  const busy = await checkBusyHealth();
  figures.busyHealth = busy;
  check('nodes whose health check takes 1.5 s stay behind the balancer (no "No server is available")', busy.statuses[200] === 10,
    `statuses ${JSON.stringify(busy.statuses)}, served by ${JSON.stringify(busy.servedBy)}`);

  // 1. Register, log in, upload and apply through the balancer; every document downloads from both nodes.
  const docs: { id: string; token: string; bytes: Buffer }[] = [];
  const courseIds: number[] = (await (await fetch(`${LB}/api/courses`)).json()).courses.map((c: any) => c.id);
  for (let i = 0; i < 4; i++) {
    const c = client(LB, { 'x-forwarded-for': `10.9.0.${i + 1}` });
    const email = `scale.${Date.now()}.${i}@example.com`;
    const reg = await c.req('POST', '/api/auth/register', { firstName: 'Scale', lastName: 'Tester', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true });
    const login = await client(LB).req('POST', '/api/auth/login', { email, password: 'secret123' });
    const auth = { authorization: `Bearer ${login.body?.token}` };
    const ids: string[] = [];
    for (const name of ['id.pdf', 'results.pdf']) {
      const bytes = Buffer.concat([PDF_BYTES, Buffer.from(`% ${email} ${name}\n`)]);
      const form = new FormData();
      form.append('file', new Blob([bytes], { type: 'application/pdf' }), name);
      const up = await client(LB).req('POST', '/api/uploads', form, auth);
      if (up.status === 201) { ids.push(up.body.upload.id); docs.push({ id: up.body.upload.id, token: login.body.token, bytes }); }
    }
    const app = await client(LB).req('POST', '/api/applications', applicationBody(courseIds[i], ids[0], ids[1]), auth);
    check(`applicant ${i + 1}: register ${reg.status}, login ${login.status}, 2 uploads, apply ${app.status} through the balancer`, reg.status === 201 && login.status === 200 && ids.length === 2 && app.status === 201);
  }
  let downloads = 0;
  for (const d of docs) {
    for (const base of [A, B]) {
      const res = await fetch(`${base}/api/uploads/${d.id}`, { headers: { authorization: `Bearer ${d.token}` } });
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status === 200 && Buffer.compare(body, d.bytes) === 0) downloads++;
    }
  }
  check('every document downloads from both nodes', downloads === docs.length * 2 && docs.length === 8, `${downloads} of ${docs.length * 2} downloads identical`);

  // 2. A course published on A: on B's API within 2 s, on B's static page (target 30 s, reported).
  const admin = await client(A).req('POST', '/api/auth/login', ADMIN);
  const adminAuth = { authorization: `Bearer ${admin.body?.token}` };
  const title = `Published On A ${Date.now()}`;
  await fetch(`${B}/api/courses`); // warm B's public read cache
  const published = await client(A).req('POST', '/api/courses', { title, description: 'Published on node A.', duration: 6, department: 'Technology', tuitionFee: 'R6,500', startDate: 'February 2027' }, adminAuth);
  const tPublish = performance.now();
  const publishedAt = new Date();
  const courseId = published.body?.course?.id;
  const apiMs = await waitFor('the course on B\'s API', async () => ((await (await fetch(`${B}/api/courses`)).text()).includes(title) ? performance.now() - tPublish : false), 60_000, 20);
  const pageMs = await waitFor('the course on B\'s static page', async () => {
    const res = await fetch(`${B}/courses/${courseId}`);
    return res.status === 200 && (await res.text()).includes(title) ? performance.now() - tPublish : false;
  }, 120_000, 250);
  const pageMsA = await waitFor('the course on A\'s static page', async () => {
    const res = await fetch(`${A}/courses/${courseId}`);
    return res.status === 200 && (await res.text()).includes(title) ? performance.now() - tPublish : false;
  }, 120_000, 250);
  figures.publish = { apiOnBMs: Math.round(apiMs), staticOnBMs: Math.round(pageMs), staticOnAMs: Math.round(pageMsA) };
  check('a course published on A is on B\'s API within 2 s', published.status === 201 && apiMs <= 2000, `${fmt(apiMs, 0)} ms`);
  // The static page's time is one `astro build` and varies with the machine's load, so it is reported against the
  // 30 s target, not asserted (timed assertions live in bench/); the check is that B rebuilt without a restart.
  figures.publish = { ...(figures.publish as object), staticTargetMs: 30_000, staticTargetMet: pageMs <= 30_000 };
  check('…and on B\'s static pages without a restart', pageMs > 0, `${fmt(pageMs / 1000)} s (A's own page: ${fmt(pageMsA / 1000)} s; target 30 s ${pageMs <= 30_000 ? 'met' : 'MISSED'})`);
  // One `astro build` for the change: the node that claimed it builds, the other downloads it from S3 (shared-builds.ts).
  // A node switches to its new build before it marks the build's row `ok` (builder.ts), so B's page can be live a
  // moment before B's row says so: wait up to 20 s for both rows rather than read them at that moment (CI once read
  // "1 astro build(s), 0 fetched" with both pages already live).
  const okBuilds = async () => (await sql.query<{ reason: string }>(`select reason from site_builds where status = 'ok' and started_at >= $1`, [publishedAt])).rows;
  const builds = await waitFor('both nodes\' build rows', async () => { const rows = await okBuilds(); return rows.length >= 2 && rows; }, 20_000, 250).catch(okBuilds);
  const fetchedBuilds = builds.filter((b) => b.reason.includes('fetched from another node')).length;
  const { rows: [shared] } = await sql.query<{ bytes: number }>(`select bytes from shared_site_builds where status = 'ready' order by finished_at desc limit 1`);
  figures.publish = { ...(figures.publish as object), astroBuilds: builds.length - fetchedBuilds, fetchedBuilds, sharedBuildBytes: shared?.bytes ?? null };
  check('…built once: the other node downloads that build', fetchedBuilds >= 1 && builds.length - fetchedBuilds >= 1, `${builds.length - fetchedBuilds} astro build(s), ${fetchedBuilds} fetched (tarball ${Math.round((shared?.bytes ?? 0) / 1024)} KB)`);

  // Both nodes serve the same build, so they name the same page dictionary (dictionary.ts), and a browser that took
  // it from one node gets dcz pages from the other: behind the balancer its requests alternate between them.
  const dictionaryLink = async (u: string) => (await fetch(`${u}/login`, { headers: { 'accept-encoding': 'br' } })).headers.get('link') ?? '';
  const [linkA, linkB] = await Promise.all([A, B].map((u) => waitFor(`${u} to name its page dictionary`, async () => { const l = await dictionaryLink(u); return /rel="compression-dictionary"/.test(l) && l; }, 60_000, 250)));
  const dictionaryUrl = /<([^>]+)>/.exec(linkA)?.[1] ?? '';
  const dictionaryBytes = Buffer.from(await (await fetch(`${A}${dictionaryUrl}`)).arrayBuffer());
  const fromB = await fetch(`${B}/courses`, { headers: { 'accept-encoding': 'br, dcz', 'available-dictionary': `:${crypto.createHash('sha256').update(dictionaryBytes).digest('base64')}:` } });
  await fromB.arrayBuffer();
  check('both nodes name the same page dictionary, and B sends dcz pages to a browser holding A\'s', linkA === linkB && fromB.headers.get('content-encoding') === 'dcz', `${dictionaryUrl} (${dictionaryBytes.length} B) on A, ${/<([^>]+)>/.exec(linkB)?.[1]} on B; B's /courses as ${fromB.headers.get('content-encoding')}`);

  // 3. 50 applicants for 30 s through the balancer; kill -9 A after a third, restart it at 40 % (a start takes
  // seconds on a busy machine); A has rejoined once the balancer hands it requests again.
  const pool: { auth: Record<string, string>; userId: number; docs: [string, string]; next: number }[] = [];
  const allCourses: number[] = (await (await fetch(`${LB}/api/courses`)).json()).courses.map((c: any) => c.id);
  for (let i = 0; i < APPLICANTS; i += 10) {
    await Promise.all(Array.from({ length: Math.min(10, APPLICANTS - i) }, async (_, k) => {
      const n = i + k;
      const c = client(LB, { 'x-forwarded-for': `10.8.${n >> 8}.${n & 255}` });
      const reg = await c.req('POST', '/api/auth/register', { firstName: 'Load', lastName: 'Tester', email: `scale.load.${Date.now()}.${n}@example.com`, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true });
      if (reg.status !== 201) throw new Error(`load applicant registration answered ${reg.status}`);
      const auth = { authorization: `Bearer ${reg.body.token}` };
      const ids: string[] = [];
      for (const name of ['id.pdf', 'results.pdf']) {
        const form = new FormData();
        form.append('file', new Blob([PDF_BYTES], { type: 'application/pdf' }), name);
        ids.push((await client(LB).req('POST', '/api/uploads', form, auth)).body.upload.id);
      }
      pool.push({ auth, userId: reg.body.user.id, docs: ids as [string, string], next: n % allCourses.length });
    }));
  }
  log(`${pool.length} applicants registered, each with 2 documents; load for ${LOAD_SECONDS} s`);

  type Sample = { at: number; status: number; ms: number; by: string };
  async function load(base: string, seconds: number, acknowledged: { id: number; userId: number }[], events?: (elapsed: number) => void) {
    const samples: Sample[] = [];
    const start = performance.now();
    const end = start + seconds * 1000;
    await Promise.all(pool.map(async (p) => {
      let tries = 0;
      while (performance.now() < end && tries < allCourses.length) {
        const courseId = allCourses[p.next % allCourses.length];
        const t = performance.now();
        let status = 0; let by = '-';
        try {
          const res = await fetch(`${base}/api/applications`, { method: 'POST', headers: { 'content-type': 'application/json', ...p.auth }, body: JSON.stringify(applicationBody(courseId, p.docs[0], p.docs[1])), signal: AbortSignal.timeout(15_000) });
          status = res.status; by = res.headers.get('x-served-by') ?? '-';
          const body: any = await res.json().catch(() => null);
          if (status === 201) acknowledged.push({ id: body.application.id, userId: p.userId });
        } catch { status = 0; }
        samples.push({ at: t - start, status, ms: performance.now() - t, by });
        if (status === 201 || status === 409) { p.next++; tries++; }
        else await sleep(100);
        events?.(performance.now() - start);
      }
    }));
    return { samples, seconds: (performance.now() - start) / 1000 };
  }

  const acknowledged: { id: number; userId: number }[] = [];
  let killedAt = 0; let restartedAt = 0; let restarting: Promise<void> | null = null;
  const run = await load(LB, LOAD_SECONDS, acknowledged, (elapsed) => {
    if (!killedAt && elapsed >= LOAD_SECONDS * 1000 / 3) {
      killedAt = elapsed;
      nodes.a!.proc.kill('SIGKILL');
      log(`kill -9 node A at ${fmt(elapsed / 1000)} s`);
    }
    if (killedAt && !restarting && elapsed >= LOAD_SECONDS * 1000 * 0.4) {
      restarting = startChild(nodeEnv('a')).then((c) => { nodes.a = c; restartedAt = performance.now(); log('node A restarted'); });
    }
  });
  await restarting;
  const loadStart = performance.now() - run.seconds * 1000;
  const restartElapsed = restartedAt ? restartedAt - loadStart : Infinity;
  const ok = run.samples.filter((s) => s.status === 201);
  const phase = (from: number, to: number) => run.samples.filter((s) => s.at >= from && s.at < to);
  const byServer = (xs: Sample[]) => ({ a: xs.filter((s) => s.by === 'a' && s.status === 201).length, b: xs.filter((s) => s.by === 'b' && s.status === 201).length });
  const before = byServer(phase(0, killedAt));
  const outage = byServer(phase(killedAt + 3000, restartElapsed));
  const after = byServer(phase(restartElapsed, Infinity));
  // A restart that finished late in the load (or after it) is checked with more requests through the balancer.
  let firstA: number | null = run.samples.find((s) => s.at > restartElapsed && s.by === 'a')?.at ?? null;
  if (firstA !== null) firstA -= restartElapsed;
  else {
    firstA = await waitFor('node A to get requests again', async () => {
      const res = await fetch(`${LB}/api/colfront/health`);
      await res.arrayBuffer();
      return res.headers.get('x-served-by') === 'a' ? performance.now() - restartedAt : false;
    }, 60_000, 100).catch(() => null);
  }
  const failed = run.samples.filter((s) => s.status !== 201 && s.status !== 409);

  const rows = (await sql.query('select id, user_id from applications where id = any($1::int[])', [acknowledged.map((a) => a.id)])).rows;
  const found = new Set(rows.filter((r) => acknowledged.some((a) => a.id === r.id && a.userId === r.user_id)).map((r) => r.id));
  const lost = acknowledged.filter((a) => !found.has(a.id)).length;
  figures.failover = {
    seconds: run.seconds, applicants: pool.length, acknowledged: acknowledged.length, lost, failedRequests: failed.length,
    killAtS: killedAt / 1000, restartAtS: restartElapsed / 1000, servedBeforeKill: before, servedDuringOutage: outage, servedAfterRestart: after,
    firstOnAAfterRestartS: firstA === null ? null : firstA / 1000,
    appsPerSecond: ok.length / run.seconds, p99Ms: percentile(ok.map((s) => s.ms), 99),
  };
  log(`load: ${acknowledged.length} acknowledged (${fmt(ok.length / run.seconds)}/s, p99 ${fmt(percentile(ok.map((s) => s.ms), 99), 0)} ms), ${failed.length} failed requests (502/503/network; not acknowledged, retried)`);
  check('0 acknowledged applications lost', lost === 0 && acknowledged.length > 0, `${acknowledged.length} acknowledged, ${found.size} found in PostgreSQL`);
  check('both nodes served before the kill', before.a > 0 && before.b > 0, `A ${before.a}, B ${before.b}`);
  check('traffic moved to B while A was down', outage.a === 0 && outage.b > 0, `A ${outage.a}, B ${outage.b} (from 3 s after the kill to the restart)`);
  check('A rejoined after restart', firstA !== null, `first request on A ${firstA === null ? 'never' : `${fmt(firstA / 1000)} s`} after it listened again (restarted ${fmt(restartElapsed / 1000)} s into the load; A then served ${after.a}, B ${after.b} applications)`);

  // 4. Applications/s and p99 through the balancer: two nodes, then one (frontend `one` → node B only).
  const phaseSeconds = Math.max(5, Math.round(LOAD_SECONDS / 3));
  const throughput: Record<string, { appsPerSecond: number; p99Ms: number; failed: number }> = {};
  for (const [label, base] of [['two nodes', LB], ['one node', `http://127.0.0.1:${ports.one}`]] as const) {
    // Each applicant may hold one active application per course: close the earlier phases' applications, so that a
    // fast phase never runs out of courses (a phase that did measured 0 applications/s).
    await sql.query(`update applications set status = 'rejected' where user_id = any($1::int[]) and status <> 'rejected'`, [pool.map((p) => p.userId)]);
    const r = await load(base, phaseSeconds, []);
    const good = r.samples.filter((s) => s.status === 201);
    throughput[label] = { appsPerSecond: good.length / r.seconds, p99Ms: percentile(good.map((s) => s.ms), 99), failed: r.samples.filter((s) => s.status !== 201 && s.status !== 409).length };
    log(`throughput, ${label}: ${fmt(throughput[label].appsPerSecond)} applications/s, p99 ${fmt(throughput[label].p99Ms, 0)} ms (${phaseSeconds} s, ${pool.length} applicants)`);
  }
  figures.throughput = throughput;
  check('applications acknowledged in both throughput phases', throughput['two nodes'].appsPerSecond > 0 && throughput['one node'].appsPerSecond > 0, `two nodes ${fmt(throughput['two nodes'].appsPerSecond)}/s, one node ${fmt(throughput['one node'].appsPerSecond)}/s`);
  await sql.end();
} catch (err: any) {
  check('scale test ran to the end', false, err?.stack ?? String(err));
} finally {
  await lb?.stop();
  await Promise.all(Object.values(nodes).map((n) => n?.stop().catch(() => null)));
  await s3.close();
  await db.drop().catch(() => {});
  for (const d of [tmp, dirs.a, dirs.b]) fs.rmSync(d, { recursive: true, force: true });
}

figures.checks = checks;
figures.totalSeconds = Math.round((Date.now() - t0) / 1000);
fs.mkdirSync(path.join(ROOT, 'bench/out'), { recursive: true });
fs.writeFileSync(path.join(ROOT, 'bench/out/scale.json'), JSON.stringify(figures, null, 2));
const passed = checks.every((c) => c.ok);
log(`${passed ? 'PASS' : 'FAIL'} (${checks.filter((c) => c.ok).length}/${checks.length} checks, ${figures.totalSeconds} s); figures in bench/out/scale.json`);
process.exit(passed ? 0 : 1);
