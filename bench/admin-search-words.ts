/**
 * Admin search by words at volume (after the search learnt words in any order, joiners, SA phone numbers;
 * admin-search.repo.ts searchMatch). Seeds a throw-away PostgreSQL database next to DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test; dropped at the end) with STUDENTS (10 000) students, with phones and names
 * carrying accents, apostrophes, hyphens and spaces, and APPS (20 000) applications, then reports, in milliseconds
 * (median of RUNS, 5, after one warm-up):
 *  - the applications list (listAdminApplications: a page of 20 and its count) for terms of 1, 3 and 6 words, a phone
 *    number, an APP reference and a term that matches nothing;
 *  - the Students list (listStudents) for the same terms;
 *  - the CSV export (exportAdminApplicationPages) with a search: its first page, and all of it.
 * With EXPLAIN=1, prints EXPLAIN (ANALYZE, BUFFERS) of each SQL statement of the slowest cases (those over
 * EXPLAIN_MS, 100). WITHOUT_0031=1 drops migration 0031's indexes first (the figures before it).
 * Usage: `npx node bench/admin-search-words.ts` (STUDENTS=…, APPS=… to scale).
 */
import { openDatabase } from '../api/src/db/client.ts';
import { listAdminApplications, listStudents, exportAdminApplicationPages } from '../api/src/features/admin/admin.repo.ts';
import { AdminApplicationsQuerySchema } from '../api/contracts/admin.ts';
import { freshPgDatabase } from './lib.ts';

const STUDENTS = Number(process.env.STUDENTS ?? 10_000), APPS = Number(process.env.APPS ?? 20_000), RUNS = Number(process.env.RUNS ?? 5);
const EXPLAIN = process.env.EXPLAIN === '1', EXPLAIN_MS = Number(process.env.EXPLAIN_MS ?? 100);
const COURSES = 12;
const fresh = await freshPgDatabase('perf_search');
const database = await openDatabase({ url: fresh.url });
const pool = database.pool as any;
const q = (text: string) => pool.query(text);

/** Every statement the pool is given while `fn` runs, as [text, params]. */
let recording: [string, unknown[]][] | null = null;
const original = pool.query.bind(pool);
pool.query = (a: any, b?: any, ...rest: any[]) => {
  if (recording) recording.push(typeof a === 'string' ? [a, b ?? []] : [a.text, a.values ?? b ?? []]);
  return original(a, b, ...rest);
};

async function median(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) { const t = performance.now(); await fn(); runs.push(performance.now() - t); }
  runs.sort((x, y) => x - y);
  return +runs[Math.floor(runs.length / 2)].toFixed(1);
}

async function explain(label: string, fn: () => Promise<unknown>) {
  recording = [];
  await fn();
  const statements = recording;
  recording = null;
  for (const [text, params] of statements) {
    const plan = await original(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params);
    console.log(`\n=== ${label}: ${text.slice(0, 160).replace(/\s+/g, ' ')}…\n${plan.rows.map((r: any) => r['QUERY PLAN']).join('\n')}`);
  }
}

try {
  await q(`INSERT INTO courses (title, description, tuition_fee, department) SELECT 'Course ' || c, 'd', 'R1000', 'Science' FROM generate_series(1, ${COURSES}) c`);
  await q(`INSERT INTO users (email, password_hash, first_name, last_name, phone, role)
    SELECT 'student' || i || '@bench.example', 'x',
      (ARRAY['Ṱhilivhali','Thandiwe','Sipho','Lerato','Ṋemudzivhadi','Mpho'])[1 + i % 6],
      CASE i % 4 WHEN 0 THEN 'Surname' || i WHEN 1 THEN 'O’Neill-Surname' || i WHEN 2 THEN 'van der Merwe ' || i ELSE 'Makhado-Longsurname' || i END,
      CASE WHEN i % 3 = 0 THEN NULL WHEN i % 3 = 1 THEN '07' || lpad(i::text, 8, '0') ELSE '+27 7' || lpad(i::text, 8, '0') END,
      'student'
    FROM generate_series(1, ${STUDENTS}) i`);
  await q(`INSERT INTO applications (user_id, course_id, payment_amount)
    SELECT u.id, 1 + (g % ${COURSES}), 100 FROM generate_series(0, ${APPS - 1}) g
    JOIN users u ON u.email = 'student' || (1 + g % ${STUDENTS}) || '@bench.example'`);
  if (process.env.WITHOUT_0031 === '1') for (const index of ['users_joined_name_trgm_idx', 'users_phone_trgm_idx', 'users_phone_digits_trgm_idx']) await q(`DROP INDEX IF EXISTS ${index}`);
  await q('ANALYZE');
  const [{ id: someApp }] = (await q(`SELECT id FROM applications ORDER BY id OFFSET ${Math.floor(APPS / 2)} LIMIT 1`)).rows;
  const terms: [string, string][] = [
    ['1 word', 'surname4711'],
    ['1 word, joiners', 'oneill'],
    ['3 words', 'thandiwe merwe 4710'],
    ['6 words', 'nemudzivhadi o’neill surname4711 student4711 bench example'],
    ['6 words, no match', 'alpha bravo charlie delta echo foxtrot'],
    ['phone', '070 000 4711'],
    ['phone +27', '+27 70 000 4712'],
    ['APP id', `APP-${someApp}`],
    ['no match', 'zzqxv'],
  ];
  const report: Record<string, Record<string, number>> = {};
  const slow: [string, () => Promise<unknown>][] = [];
  for (const [label, term] of terms) {
    const query = AdminApplicationsQuerySchema.parse({ q: term });
    let apps = 0, students = 0, exported = 0;
    const list = () => listAdminApplications(database.db, query).then((r) => { apps = r.total; });
    const studentList = () => listStudents(database.db, { q: term, page: 1, pageSize: 20 }).then((r) => { students = r.total; });
    const exportFirst = async () => { for await (const page of exportAdminApplicationPages(database.db, query)) { void page; break; } };
    const exportAll = async () => { exported = 0; for await (const page of exportAdminApplicationPages(database.db, query)) exported += page.length; };
    const row = {
      listMs: await median(list), found: apps,
      studentsMs: await median(studentList), studentsFound: students,
      exportFirstPageMs: await median(exportFirst), exportAllMs: await median(exportAll), exported,
    };
    report[`${label}: ${term}`] = row;
    if (row.listMs > EXPLAIN_MS) slow.push([`applications list, ${label}`, list]);
    if (row.studentsMs > EXPLAIN_MS) slow.push([`students list, ${label}`, studentList]);
    if (row.exportFirstPageMs > EXPLAIN_MS) slow.push([`export first page, ${label}`, exportFirst]);
  }
  console.log(JSON.stringify({ applications: APPS, students: STUDENTS, runs: RUNS, without0031: process.env.WITHOUT_0031 === '1' }));
  console.table(report);
  if (EXPLAIN) for (const [label, fn] of slow) await explain(label, fn);
} finally {
  await database.close();
  await fresh.drop();
}
