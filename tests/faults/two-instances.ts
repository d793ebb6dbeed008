/**
 * Two instances on one PostgreSQL (issue #8; not part of `npm test`): instances A and B on different ports
 * share a fresh database. A session made on A (cookie and bearer token) must work on B, and each queued
 * e-mail must be sent exactly once although both mail workers poll the same outbox
 * (FOR UPDATE SKIP LOCKED): every application's "received" mail appears once across both outbox dirs.
 * Usage: node tests/faults/two-instances.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { startChild, freshPgDatabase, tmpDataDir, newApplicant, applicationBody, client } from '../../bench/lib.ts';

const db = await freshPgDatabase('two');
const dirs = [tmpDataDir('eng-f-twoA'), tmpDataDir('eng-f-twoB')];
const a = await startChild({ DATA_DIR: dirs[0], DATABASE_URL: db.url, TRUST_PROXY: '1' });
const b = await startChild({ DATA_DIR: dirs[1], DATABASE_URL: db.url, TRUST_PROXY: '1' });
let ok = true;
try {
  const s = await newApplicant(a.url);
  const onB = client(b.url);
  const viaCookie = await onB.req('GET', '/api/auth/me', undefined, { cookie: s.c.cookie });
  console.info(`[two] session cookie made on A, used on B: ${viaCookie.status} ${viaCookie.body?.user?.email === s.email ? '(same user)' : ''}`);
  ok &&= viaCookie.status === 200 && viaCookie.body.user.email === s.email;

  // 60 applications spread over both instances; each queues one "received" e-mail.
  const ids: number[] = [];
  const courses: number[] = (await fetch(`${a.url}/api/courses`).then((r) => r.json())).courses.map((c: any) => c.id);
  for (let i = 0; i < 5; i++) {
    const who = await newApplicant(i % 2 ? b.url : a.url);
    for (const cid of courses.slice(0, 12)) {
      const base = cid % 2 ? a.url : b.url;
      const r = await client(base).req('POST', '/api/applications', applicationBody(cid, who.upload!, who.upload!), { cookie: who.c.cookie });
      if (r.status === 201) ids.push(r.body.application.id);
    }
  }
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  const deadline = Date.now() + 60_000;
  let pendingRows = -1;
  while (Date.now() < deadline) {
    pendingRows = (await c.query(`SELECT count(*)::int n FROM mail_outbox WHERE status <> 'sent'`)).rows[0].n;
    if (pendingRows === 0) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const rows = (await c.query(`SELECT count(*)::int n FROM mail_outbox`)).rows[0].n;
  await c.end();
  const emls = dirs.flatMap((d) => { const o = path.join(d, 'outbox'); return fs.existsSync(o) ? fs.readdirSync(o).map((f) => ({ d, text: fs.readFileSync(path.join(o, f), 'utf8') })) : []; });
  const perApp = ids.map((id) => emls.filter((e) => new RegExp(`APP-${id}\\b`).test(e.text)).length);
  const byInstance = dirs.map((d) => emls.filter((e) => e.d === d).length);
  const once = perApp.every((n) => n === 1);
  console.info(`[two] ${ids.length} applications → ${rows} outbox rows, ${emls.length} e-mails written (A ${byInstance[0]}, B ${byInstance[1]}), pending ${pendingRows}; each application's mail exactly once: ${once}`);
  ok &&= once && emls.length === rows && pendingRows === 0;
} finally {
  await a.stop(); await b.stop(); await db.drop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
}
console.info(ok ? '[two] PASS' : '[two] FAIL');
process.exit(ok ? 0 : 1);
