/**
 * Load test (issue #8 "Load" and "Database restart"; not part of `npm test`): LOAD_USERS (200) concurrent
 * applicants each register, upload a PDF and submit applications for LOAD_SECONDS (60) against a fresh
 * PostgreSQL database (DATABASE_URL or postgres://postgres@127.0.0.1:5432/test). Reports offered /
 * acknowledged (201) / found in the database, and fails on any 5xx, on an acknowledged application that is
 * missing, duplicated or incomplete (no payment or documents).
 * PG_RESTART=1 restarts PostgreSQL (`pg_ctlcluster --skip-systemctl-redirect 15 main restart`) a third of
 * the way in: 503 is then expected while the database is down, and the API must answer again within 5 s
 * of the restart finishing. Usage: node tests/load/applicants.ts
 */
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { startChild, freshPgDatabase, tmpDataDir, newApplicant, applicationBody } from '../../bench/lib.ts';

const USERS = Number(process.env.LOAD_USERS ?? 200);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const RESTART = process.env.PG_RESTART === '1';

const db = await freshPgDatabase('load');
const srv = await startChild({ DATA_DIR: tmpDataDir('eng-f-load'), DATABASE_URL: db.url, TRUST_PROXY: '1' }, { quiet: process.env.LOAD_QUIET !== '0' });
const courses: number[] = (await fetch(`${srv.url}/api/courses`).then((r) => r.json())).courses.map((c: any) => c.id);
const statuses: Record<string, number> = {};
const count = (k: string | number) => { statuses[k] = (statuses[k] ?? 0) + 1; };
const acked = new Map<number, { userId: number; courseId: number }>();
let offered = 0;
let fiveXX = 0;
let non503During = 0;
let down: { from: number; to: number } | null = null;
const t0 = Date.now();
const deadline = t0 + SECONDS * 1000;

async function applicant() {
  while (Date.now() < deadline) {
    let a;
    try { a = await newApplicant(srv.url); } catch { count('network'); continue; }
    if (!a.upload) { count(`setup ${a.status}`); if (a.status >= 500) { fiveXX += a.status === 503 && down ? 0 : 1; } await new Promise((r) => setTimeout(r, 200)); continue; }
    for (const courseId of courses.slice(0, 3)) {
      if (Date.now() >= deadline) break;
      offered++;
      let r;
      try { r = await a.c.req('POST', '/api/applications', applicationBody(courseId, a.upload, a.upload)); } catch { count('network'); continue; }
      count(r.status);
      if (r.status === 201) acked.set(r.body.application.id, { userId: a.userId, courseId });
      else if (r.status >= 500) {
        const during = down && Date.now() >= down.from && Date.now() <= down.to + 5000;
        if (!(r.status === 503 && during)) fiveXX++;
        if (during && r.status !== 503) non503During++;
      }
    }
  }
}

let recoveryMs: number | null = null;
async function restartPostgres() {
  await new Promise((r) => setTimeout(r, (SECONDS * 1000) / 3));
  const from = Date.now();
  down = { from, to: Infinity };
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', '15', 'main', 'restart'], { stdio: 'inherit' });
  down.to = Date.now();
  console.info(`[load] PostgreSQL restarted in ${down.to - from} ms`);
  while (Date.now() - down.to < 30_000) {
    const h = await fetch(`${srv.url}/api/colfront/health`).then((r) => r.status).catch(() => 0);
    if (h === 200) { recoveryMs = Date.now() - down.to; break; }
    await new Promise((r) => setTimeout(r, 100));
  }
  console.info(`[load] API healthy again ${recoveryMs} ms after the restart finished`);
}

console.info(`[load] ${USERS} applicants for ${SECONDS} s against ${srv.url} (PostgreSQL${RESTART ? ', restart mid-load' : ''})`);
await Promise.all([...Array.from({ length: USERS }, applicant), ...(RESTART ? [restartPostgres()] : [])]);

// Verify in the database.
const c = new pg.Client({ connectionString: db.url });
await c.connect();
const ids = [...acked.keys()];
const { rows } = await c.query(
  `SELECT a.id, a.user_id, a.course_id, a.documents, (SELECT count(*)::int FROM payments p WHERE p.application_id = a.id) AS pays
   FROM applications a WHERE a.id = ANY($1::int[])`, [ids]);
const dupes = await c.query(`SELECT user_id, course_id, count(*)::int n FROM applications GROUP BY 1, 2 HAVING count(*) > 1`);
await c.end();
const found = new Map(rows.map((r: any) => [r.id, r]));
const missing = ids.filter((id) => !found.has(id));
const wrong = rows.filter((r: any) => { const e = acked.get(r.id)!; return r.user_id !== e.userId || r.course_id !== e.courseId || r.pays !== 1 || !r.documents?.idDocument; });
await srv.stop();
await db.drop();

const secs = (Date.now() - t0) / 1000;
console.info(`[load] offered ${offered} submits · acknowledged ${acked.size} · found in DB ${rows.length} (missing ${missing.length}, incomplete ${wrong.length}, duplicated pairs ${dupes.rows.length})`);
console.info(`[load] ${(acked.size / secs).toFixed(1)} acknowledged submits/s · statuses ${JSON.stringify(statuses)} · unexpected 5xx ${fiveXX}${RESTART ? ` · recovery ${recoveryMs} ms` : ''}`);
const ok = fiveXX === 0 && missing.length === 0 && wrong.length === 0 && dupes.rows.length === 0 && (!RESTART || (recoveryMs !== null && recoveryMs <= 5000));
console.info(ok ? '[load] PASS' : '[load] FAIL');
process.exit(ok ? 0 : 1);
