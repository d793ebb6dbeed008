/**
 * Crash test (issue #8 "Crash"; not part of `npm test`): a server on PGlite takes application submits from
 * 16 concurrent applicants; after CRASH_AFTER_MS (4000) it is killed with SIGKILL mid-write. It is then
 * restarted on the same DATA_DIR. Pass when every acknowledged (201) application is still there and every
 * queued e-mail reaches status 'sent' (mail_outbox) after the restart.
 * Reports offered / acknowledged / found. Usage: node tests/faults/crash-pglite.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { startChild, tmpDataDir, newApplicant, applicationBody } from '../../bench/lib.ts';
import { openDatabase } from '../../api/src/db/client.ts';

const dataDir = tmpDataDir('eng-f-crash');
const first = await startChild({ DATA_DIR: dataDir, TRUST_PROXY: '1' });
const courses: number[] = (await fetch(`${first.url}/api/courses`).then((r) => r.json())).courses.map((c: any) => c.id);
const acked = new Set<number>();
let offered = 0;
let killed = false;
const errors: Record<string, number> = {};

async function worker() {
  while (!killed) {
    const a = await newApplicant(first.url).catch(() => null);
    if (!a?.upload) continue;
    for (const courseId of courses) {
      if (killed) return;
      offered++;
      try {
        const r = await a.c.req('POST', '/api/applications', applicationBody(courseId, a.upload, a.upload));
        if (r.status === 201) acked.add(r.body.application.id);
        else errors[r.status] = (errors[r.status] ?? 0) + 1;
      } catch { errors.network = (errors.network ?? 0) + 1; }
    }
  }
}

const workers = Array.from({ length: 16 }, worker);
await new Promise((r) => setTimeout(r, Number(process.env.CRASH_AFTER_MS ?? 4000)));
killed = true;
await first.stop('SIGKILL');
await Promise.allSettled(workers);
console.info(`[crash] SIGKILL after ${offered} offered submits, ${acked.size} acknowledged (other outcomes ${JSON.stringify(errors)})`);

const second = await startChild({ DATA_DIR: dataDir });
// Let the mail worker drain the outbox (1 s poll, 20 per pass).
let pending = -1;
const deadline = Date.now() + 120_000;
while (Date.now() < deadline) {
  await new Promise((r) => setTimeout(r, 2000));
  const files = fs.existsSync(path.join(dataDir, 'outbox')) ? fs.readdirSync(path.join(dataDir, 'outbox')).length : 0;
  if (files >= acked.size) break;
}
await second.stop();

const db = await openDatabase({ dataDir });
const apps = (await db.pool.query('SELECT id FROM applications')).rows.map((r: any) => r.id as number);
const outbox = (await db.pool.query(`SELECT status, count(*)::int AS n FROM mail_outbox GROUP BY status`)).rows;
await db.close();
pending = outbox.filter((r: any) => r.status !== 'sent').reduce((s: number, r: any) => s + r.n, 0);
const have = new Set(apps);
const lost = [...acked].filter((id) => !have.has(id));
console.info(`[crash] after restart: ${apps.length} applications in the database (acknowledged ${acked.size}, lost ${lost.length}); mail_outbox ${JSON.stringify(outbox)}`);
const ok = lost.length === 0 && pending === 0 && acked.size > 0;
console.info(ok ? '[crash] PASS' : '[crash] FAIL');
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(ok ? 0 : 1);
