/**
 * Admin application search at volume (volume audit item 4b): seeds a throw-away PostgreSQL database next to
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test; dropped at the end) with 8 000 students and
 * SCALE × 100 000 applications, then reports in milliseconds one search page (listAdminApplications, page and count)
 * for a name term and an e-mail term, the search as it was (unaccent over every joined row) for comparison, and the
 * plan of the users subquery (it must use users_name_trgm_idx / users_email_trgm_idx).
 * Usage: `npx node bench/admin-search.ts` (SCALE=0.2 for 20 000 applications).
 */
import { openDatabase } from '../api/src/db/client.ts';
import { listAdminApplications } from '../api/src/features/admin/admin.repo.ts';
import { AdminApplicationsQuerySchema } from '../api/contracts/admin.ts';
import { freshPgDatabase } from './lib.ts';

const SCALE = Number(process.env.SCALE ?? 1);
const STUDENTS = 8000, APPS = Math.round(100_000 * SCALE), COURSES = Math.ceil(APPS / STUDENTS) + 1;
const fresh = await freshPgDatabase('bench_search');
const database = await openDatabase({ url: fresh.url });
const q = (text: string) => database.pool.query(text);
const ms = async (fn: () => Promise<unknown>) => { const t = performance.now(); await fn(); return +(performance.now() - t).toFixed(1); };
try {
  await q(`INSERT INTO courses (title, description, tuition_fee, department) SELECT 'Course ' || c, 'd', 'R1000', 'Science' FROM generate_series(1, ${COURSES}) c`);
  await q(`INSERT INTO users (email, password_hash, first_name, last_name)
    SELECT 'student' || i || '@bench.example', 'x', (ARRAY['Ṱhilivhali','Thandiwe','Sipho','Lerato','Ṋemudzivhadi'])[1 + i % 5], 'Surname' || i FROM generate_series(1, ${STUDENTS}) i`);
  await q(`INSERT INTO applications (user_id, course_id, payment_amount) SELECT 1 + (i % ${STUDENTS}), 1 + (i / ${STUDENTS}), 100 FROM generate_series(0, ${APPS - 1}) i`);
  await q('ANALYZE');
  const report: Record<string, unknown> = { applications: APPS, students: STUDENTS };
  for (const [label, term] of [['name', 'surname4711'], ['accentName', 'nemudzivhadi surname1234'], ['email', 'student4711@']] as const) {
    const query = AdminApplicationsQuerySchema.parse({ q: term });
    let found = 0;
    report[`${label}Ms`] = await ms(async () => { found = (await listAdminApplications(database.db, query)).total; });
    report[`${label}Found`] = found;
    const like = `'%${term}%'`;
    const old = await q(`EXPLAIN (ANALYZE, FORMAT JSON) SELECT count(*) FROM applications a JOIN users u ON u.id = a.user_id LEFT JOIN courses c ON c.id = a.course_id
      WHERE unaccent(u.first_name || ' ' || u.last_name) ILIKE '%' || unaccent('${term}') || '%' OR u.email ILIKE ${like} OR c.title ILIKE ${like}`);
    report[`${label}OldCountMs`] = +Number(old.rows[0]['QUERY PLAN'][0]['Execution Time']).toFixed(1);
  }
  report.usersPlan = (await q(`EXPLAIN SELECT id FROM users WHERE immutable_unaccent(first_name || ' ' || last_name) ILIKE '%' || unaccent('surname4711') || '%' OR email ILIKE '%surname4711%'`)).rows.map((r) => r['QUERY PLAN']).join('\n');
  console.log(JSON.stringify(report, null, 2));
} finally {
  await database.close();
  await fresh.drop();
}
