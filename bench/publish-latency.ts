/**
 * Publish latency (issue #6 "Measure"): from saving a course (POST /api/courses) to /courses/{id} answering
 * 200 on the live site, with the catalogue padded to N courses. Usage:
 *   node bench/publish-latency.ts 500
 * Starts the real server (site builder, debounce 200 ms) on a temporary DATA_DIR and port 0.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { startServer } from '../api/src/server.ts';

const target = Number(process.argv[2] ?? 12);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'publish-bench-'));
const s = await startServer({ ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: '', PUBLIC_URL: 'http://127.0.0.1',
  SESSION_SECRET: 'bench-secret-0123456789abcdef', ADMIN_EMAIL: 'bench@college.example', ADMIN_PASSWORD: 'bench-pass-1', SITE_BUILD: 'auto', SITE_BUILD_DEBOUNCE_MS: '200', MAIL_FROM: '"Vhembe Skills College Admissions" <admissions@vhembe.ac.za>' }, { waitForSite: true });
try {
  await s.database.db.execute(sql`
    insert into courses (title, description, level, duration, tuition_fee, start_date, department)
    select 'Bench course ' || g, 'A course used to measure publishing.', 'certificate', 6, 'R5,000', 'March 2027', 'Business'
    from generate_series(1, greatest(0, ${target} - (select count(*) from courses))) g`);
  await s.builder.buildNow('bench baseline');
  const login = await fetch(`${s.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@college.example', password: 'bench-pass-1' }) });
  const { token } = await login.json();
  const t0 = performance.now();
  const res = await fetch(`${s.url}/api/courses`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ title: 'Published course', description: 'Measure me please.', duration: 3, department: 'Technology', tuitionFee: 'R1', startDate: 'Soon' }) });
  const { course } = await res.json();
  const saved = performance.now() - t0;
  while ((await fetch(`${s.url}/courses/${course.id}`)).status !== 200) {
    if (performance.now() - t0 > 180_000) throw new Error(`not live after 180 s; last build: ${JSON.stringify(await s.builder.lastBuild())}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const live = performance.now() - t0;
  const [{ n }] = ((await s.database.db.execute(sql`select count(*)::int as n from courses where is_active`)) as any).rows;
  console.info(JSON.stringify({ activeCourses: n, saveMs: Math.round(saved), liveMs: Math.round(live), lastBuild: await s.builder.lastBuild() }));
} finally {
  await s.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
