/**
 * API benchmarks (issue #8): for PGlite and PostgreSQL, in one run each —
 *  - reads: GET /api/courses and /api/courses/1 under autocannon; max rate (closed loop, 10 connections),
 *    then req/s, p50, p99 at 50 % of that rate (autocannon -R), and the same for a bare node:http server
 *    serving the same JSON; ratio = production max / bare max (target ≥ 0.5, p99 ≤ 50 ms). These send no
 *    Accept-Encoding. The browser case: GET /api/courses again with `accept-encoding: gzip, deflate, br, zstd`
 *    (what Chromium sends), its Content-Encoding and bytes on the wire; its ratio is against the same bare
 *    max (the bare server never encodes), so it says what a browser's read costs next to an uncompressed bare read;
 *  - logins/s with argon2id (closed loop, 4 connections; target ≥ 20/s, p99 ≤ 500 ms);
 *  - application submits/s with p99 (register + upload first, then 8 concurrent submitters), and what each submit
 *    cost, which a busy shared machine moves far less than the rate: the server process's CPU (ms per submit, all its
 *    threads; with PGlite the database's work too) and, on PostgreSQL, the bench database's commits (xact_commit,
 *    read-only autocommit statements included) and the server's WAL syncs (pg_stat_wal.wal_sync: cluster-wide, so
 *    other databases' commits count too) per submit; then, with no requests, the mail and SMS workers alone for
 *    WORKER_SECONDS (default 5): messages sent and commits per message;
 *  - peak RSS of the server idle and under load.
 * Commits per submit include the workers' commits made during the phase.
 * Usage: node bench/api.ts [pglite|postgres]…  Prints a table and writes bench/out/api.json. BENCH_PHASES=submits runs
 * only the submit phase (and the workers' window after it).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fork } from 'node:child_process';
import pg from 'pg';
import { ROOT, ADMIN, startChild, freshPgDatabase, tmpDataDir, rss, withRssPeak, cannon, percentile, mb, fmt, client, applicationBody, newApplicant, type Child } from './lib.ts';

const DUR = Number(process.env.BENCH_SECONDS ?? 6);
const WORKER_SECONDS = Number(process.env.WORKER_SECONDS ?? 5);
const SUBMITS_ONLY = process.env.BENCH_PHASES === 'submits';

/** CPU time (user + system, all threads) of process `pid` so far, in ms (Linux /proc, 100 ticks a second). */
function cpuMs(pid: number): number {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** Counters of the bench's PostgreSQL database: its commits, the cluster's WAL syncs, mail and SMS rows sent. */
async function pgCounters(url: string): Promise<{ commits: number; walSyncs: number; mailSent: number; smsSent: number }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    // Statistics reach the views when a backend flushes them (at most once a second while busy): a short wait first.
    await new Promise((r) => setTimeout(r, 1200));
    const r = (await c.query(`SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database())::bigint AS commits,
      (SELECT wal_sync FROM pg_stat_wal)::bigint AS wal_syncs,
      (SELECT count(*) FROM mail_outbox WHERE status = 'sent')::int AS mail, (SELECT count(*) FROM sms_outbox WHERE status = 'sent')::int AS sms`)).rows[0];
    return { commits: Number(r.commits), walSyncs: Number(r.wal_syncs), mailSent: r.mail, smsSent: r.sms };
  } finally { await c.end(); }
}
const minus = <T extends Record<string, number>>(a: T, b: T): T => Object.fromEntries(Object.keys(a).map((k) => [k, a[k]! - b[k]!])) as T;
const kinds = process.argv.slice(2).filter((a) => a === 'pglite' || a === 'postgres');
if (!kinds.length) kinds.push('pglite', 'postgres');

function startBare(routes: Record<string, string>): Promise<Child> {
  const file = path.join(tmpDataDir('eng-f-bare'), 'routes.json');
  fs.writeFileSync(file, JSON.stringify(routes));
  return new Promise((resolve, reject) => {
    const proc = fork(path.join(ROOT, 'bench/bare-server.ts'), [], { env: { ...process.env, BARE_ROUTES: file }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    proc.once('error', reject);
    proc.once('message', (m: any) => {
      const exited = new Promise<number | null>((r) => proc.once('exit', (c) => r(c)));
      resolve({ url: m.url, proc, pid: proc.pid!, stop: async (s = 'SIGTERM') => { proc.kill(s); return exited; } });
    });
  });
}

/** Accept-Encoding as Chromium sends it (Chrome 123+). */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** One GET over node:http, which never decodes: Content-Encoding (or 'identity') and the bytes on the wire. */
function wire(url: string, headers: Record<string, string>): Promise<{ encoding: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => { bytes += c.length; });
      res.on('end', () => resolve({ encoding: String(res.headers['content-encoding'] ?? 'identity'), bytes }));
    }).on('error', reject);
  });
}

async function readBench(base: string, p: string, headers?: Record<string, string>) {
  const max = await cannon({ url: base + p, connections: 10, duration: DUR, headers });
  const half = await cannon({ url: base + p, connections: 10, duration: DUR, rate: Math.max(1, Math.floor(max.rps / 2)), headers });
  return { max: max.rps, rps: half.rps, p50: half.p50, p99: half.p99, errors: max.errors + half.errors + max.non2xx + half.non2xx };
}

async function run(kind: 'pglite' | 'postgres') {
  const pgdb = kind === 'postgres' ? await freshPgDatabase('bench') : null;
  const dataDir = tmpDataDir('eng-f-bench');
  const srv = await startChild({ DATA_DIR: dataDir, DATABASE_URL: pgdb?.url ?? '', TRUST_PROXY: '1', LOGIN_RATE_LIMIT: '100000' });
  const out: any = { kind };
  try {
    await new Promise((r) => setTimeout(r, 1500));
    out.rssIdle = rss(srv.pid).rss;
    if (!SUBMITS_ONLY) await readsAndLogins(srv, out);
    await submits(srv, pgdb?.url ?? null, out);
  } finally {
    await srv.stop();
    await pgdb?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
}

/** The read and login phases of `run` (results into `out`). */
async function readsAndLogins(srv: Child, out: any): Promise<void> {
  {
    const list = await fetch(`${srv.url}/api/courses`).then((r) => r.text());
    const one = await fetch(`${srv.url}/api/courses/1`).then((r) => r.text());
    const bare = await startBare({ '/api/courses': list, '/api/courses/1': one });
    try {
      const { result, peak } = await withRssPeak(srv.pid, async () => ({
        list: await readBench(srv.url, '/api/courses'), one: await readBench(srv.url, '/api/courses/1'),
        listBrowser: { ...await readBench(srv.url, '/api/courses', { 'accept-encoding': BROWSER_ACCEPT_ENCODING }),
          ...await wire(`${srv.url}/api/courses`, { 'accept-encoding': BROWSER_ACCEPT_ENCODING }), identityBytes: Buffer.byteLength(list) },
      }));
      out.reads = result;
      out.rssReads = peak;
      out.bare = { list: await readBench(bare.url, '/api/courses'), one: await readBench(bare.url, '/api/courses/1') };
    } finally { await bare.stop(); }

    // Logins: argon2id verify per request.
    const loginBody = JSON.stringify({ email: ADMIN.email, password: ADMIN.password });
    const { result: logins, peak: rssLogin } = await withRssPeak(srv.pid, () => cannon({ url: `${srv.url}/api/auth/login`, method: 'POST', body: loginBody, headers: { 'content-type': 'application/json' }, connections: 4, duration: DUR }));
    out.logins = logins; out.rssLogins = rssLogin;
  }
}

/** The submit phase of `run`, then the workers alone (results into `out`). */
async function submits(srv: Child, pgUrl: string | null, out: any): Promise<void> {
  {
    // Submits: 40 applicants × up to 14 courses, 8 at a time.
    const courses: number[] = (await fetch(`${srv.url}/api/courses`).then((r) => r.json())).courses.map((c: any) => c.id);
    const applicants = [];
    for (let i = 0; i < 40; i++) applicants.push(await newApplicant(srv.url));
    const jobs = applicants.flatMap((a) => courses.map((cid) => ({ a, cid })));
    const lat: number[] = []; const statuses: Record<number, number> = {};
    const pg0 = pgUrl ? await pgCounters(pgUrl) : null;
    const cpu0 = cpuMs(srv.pid);
    const t0 = performance.now();
    const { peak: rssSubmit } = await withRssPeak(srv.pid, async () => {
      let next = 0;
      await Promise.all(Array.from({ length: 8 }, async () => {
        while (next < jobs.length && performance.now() - t0 < DUR * 1000) {
          const { a, cid } = jobs[next++];
          const r = await a.c.req('POST', '/api/applications', applicationBody(cid, a.upload!, a.upload!));
          lat.push(r.ms); statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        }
      }));
    });
    const secs = (performance.now() - t0) / 1000;
    const n = statuses[201] ?? 0;
    const cpu1 = cpuMs(srv.pid);
    const pg1 = pgUrl ? await pgCounters(pgUrl) : null;
    const d = pg0 && pg1 ? minus(pg1, pg0) : null;
    out.submits = { perSec: n / secs, p50: percentile(lat, 50), p99: percentile(lat, 99), statuses, cpuMsPerSubmit: (cpu1 - cpu0) / n,
      commitsPerSubmit: d ? d.commits / n : null, walSyncsPerSubmit: d ? d.walSyncs / n : null, mailSent: d?.mailSent ?? null, smsSent: d?.smsSent ?? null };
    out.rssPeak = Math.max(rss(srv.pid).peak, rssSubmit);
    if (pg1) {
      // The backlog the submits queued, sent by the workers alone.
      await new Promise((r) => setTimeout(r, WORKER_SECONDS * 1000));
      const w = minus(await pgCounters(pgUrl!), pg1);
      const sent = w.mailSent + w.smsSent;
      out.workers = { seconds: WORKER_SECONDS, mailSent: w.mailSent, smsSent: w.smsSent, commitsPerMessage: sent ? w.commits / sent : null, walSyncsPerMessage: sent ? w.walSyncs / sent : null };
    }
  }
}

const results = [];
for (const k of kinds) {
  console.info(`\n[bench:api] ${k}: running (${DUR} s per phase)…`);
  const r = await run(k as 'pglite' | 'postgres');
  results.push(r);
  const ratio = (a: number, b: number) => fmt(a / b, 2);
  const sub = r.submits;
  const cost = `server CPU ${fmt(sub.cpuMsPerSubmit, 2)} ms${sub.commitsPerSubmit == null ? '' : `, commits ${fmt(sub.commitsPerSubmit, 2)}, WAL syncs (cluster) ${fmt(sub.walSyncsPerSubmit, 2)}`} per submit`;
  const workers = r.workers ? `\n  workers alone      ${r.workers.seconds} s: ${r.workers.mailSent} mails + ${r.workers.smsSent} SMS sent, ${fmt(r.workers.commitsPerMessage, 2)} commits and ${fmt(r.workers.walSyncsPerMessage, 2)} WAL syncs (cluster) per message` : '';
  if (SUBMITS_ONLY) {
    console.info(`[bench:api] ${k}
  submits             ${fmt(sub.perSec)} /s, p50 ${fmt(sub.p50, 0)} ms, p99 ${fmt(sub.p99, 0)} ms, statuses ${JSON.stringify(sub.statuses)}
                      ${cost}${workers}`);
    continue;
  }
  console.info(`[bench:api] ${k}
  GET /api/courses    max ${fmt(r.reads.list.max, 0)} req/s (bare ${fmt(r.bare.list.max, 0)}; ratio ${ratio(r.reads.list.max, r.bare.list.max)}) · at 50 %: ${fmt(r.reads.list.rps, 0)} req/s, p50 ${r.reads.list.p50} ms, p99 ${r.reads.list.p99} ms (bare p99 ${r.bare.list.p99} ms)
  GET /api/courses, browser (Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}; ${r.reads.listBrowser.encoding}, ${r.reads.listBrowser.bytes} of ${r.reads.listBrowser.identityBytes} bytes)
                      max ${fmt(r.reads.listBrowser.max, 0)} req/s (ratio to bare ${ratio(r.reads.listBrowser.max, r.bare.list.max)}) · at 50 %: ${fmt(r.reads.listBrowser.rps, 0)} req/s, p50 ${r.reads.listBrowser.p50} ms, p99 ${r.reads.listBrowser.p99} ms
  GET /api/courses/1  max ${fmt(r.reads.one.max, 0)} req/s (bare ${fmt(r.bare.one.max, 0)}; ratio ${ratio(r.reads.one.max, r.bare.one.max)}) · at 50 %: ${fmt(r.reads.one.rps, 0)} req/s, p50 ${r.reads.one.p50} ms, p99 ${r.reads.one.p99} ms (bare p99 ${r.bare.one.p99} ms)
  logins              ${fmt(r.logins.rps)} /s, p50 ${r.logins.p50} ms, p99 ${r.logins.p99} ms, non-2xx ${r.logins.non2xx}
  submits             ${fmt(r.submits.perSec)} /s, p50 ${fmt(r.submits.p50, 0)} ms, p99 ${fmt(r.submits.p99, 0)} ms, statuses ${JSON.stringify(r.submits.statuses)}
                      ${cost}${workers}
  RSS                 idle ${mb(r.rssIdle)}, reads ${mb(r.rssReads)}, logins ${mb(r.rssLogins)}, peak ${mb(r.rssPeak)}
  read errors/non-2xx ${r.reads.list.errors + r.reads.one.errors + r.reads.listBrowser.errors}`);
}
fs.mkdirSync(path.join(ROOT, 'bench/out'), { recursive: true });
fs.writeFileSync(path.join(ROOT, 'bench/out/api.json'), JSON.stringify({ at: new Date().toISOString(), results }, null, 2));
