/**
 * Orphan-upload purge at volume (volume audit item 1): seeds a throw-away PostgreSQL database (made next to
 * DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, dropped at the end) with SCALE × (8 000 students,
 * 20 000 applications, 5 000 drafts, 40 000 uploads of which 3 000 orphans), then reports in milliseconds:
 * - the purge's candidate query as it was (jsonb_each_text of every application, LIKE over every draft's text) and as
 *   it is (`upload_refs(x) @> ARRAY[id]` on the GIN indexes of migrations 0018/0019), with EXPLAIN ANALYZE's times;
 * - the delete check (isAttached) old and new, for one attached upload;
 * - one real purgeOrphanUploads run (document store that deletes nothing) and how many it erased.
 * Usage: `npx node bench/upload-purge.ts` (SCALE=5 for 100 000 applications; OLD=0 skips the slow old queries).
 */
import { openDatabase } from '../api/src/db/client.ts';
import { isAttached, orphanUploadRows } from '../api/src/features/uploads/uploads.repo.ts';
import { purgeOrphanUploads, ORPHAN_UPLOAD_TTL_MS } from '../api/src/features/uploads/uploads.service.ts';
import type { DocumentStore } from '../api/src/storage/document-store.ts';
import { freshPgDatabase } from './lib.ts';

const SCALE = Number(process.env.SCALE ?? 1);
const RUN_OLD = process.env.OLD !== '0';
const STUDENTS = 8000 * SCALE, APPS = 20_000 * SCALE, DRAFTS = 5000 * SCALE, ORPHANS = 3000 * SCALE;
// Every application cites an ID document; 60 % also a transcript. Each draft cites one upload.
const WITH_TRANSCRIPT = Math.floor(APPS * 0.6);
const UPLOADS = APPS + WITH_TRANSCRIPT + DRAFTS + ORPHANS;

const fresh = await freshPgDatabase('bench_purge');
const database = await openDatabase({ url: fresh.url });
const db = database.db;
const q = (text: string) => database.pool.query(text);
const ms = async (fn: () => Promise<unknown>) => { const t = performance.now(); await fn(); return +(performance.now() - t).toFixed(1); };
const explainMs = async (text: string) => {
  const rows = (await q(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`)).rows;
  return +Number(rows[0]['QUERY PLAN'][0]['Execution Time']).toFixed(1);
};

try {
  const seedMs = await ms(async () => {
    await q(`INSERT INTO courses (title, description, tuition_fee, department) SELECT 'Course ' || c, 'd', 'R1000', 'Science' FROM generate_series(1, ${Math.ceil(APPS / STUDENTS) + 1}) c`);
    await q(`INSERT INTO users (email, password_hash, first_name, last_name) SELECT 's' || i || '@bench.example', 'x', 'Thandiwe', 'Nkosi' || i FROM generate_series(1, ${STUDENTS}) i`);
    // Upload ids 'up' + 14 digits: 16 characters, the shape of real ones (UPLOAD_ID_PATTERN). All older than the TTL.
    await q(`INSERT INTO uploads (id, user_id, original_name, stored_name, mime, size, created_at)
      SELECT 'up' || lpad(i::text, 14, '0'), 1 + (i % ${STUDENTS}), 'f.pdf', 'f' || i || '.pdf', 'application/pdf', 1000, now() - interval '8 days'
      FROM generate_series(1, ${UPLOADS}) i`);
    const id = (expr: string) => `'up' || lpad((${expr})::text, 14, '0')`;
    await q(`INSERT INTO applications (user_id, course_id, personal, documents, payment_amount)
      SELECT 1 + (i % ${STUDENTS}), 1 + (i / ${STUDENTS}), '{"firstName":"Thandiwe","lastName":"Nkosi","city":"Thohoyandou"}',
        CASE WHEN i < ${WITH_TRANSCRIPT} THEN jsonb_build_object('idDocument', ${id('i + 1')}, 'transcripts', ${id(`${APPS} + i + 1`)})
             ELSE jsonb_build_object('idDocument', ${id('i + 1')}) END, 100
      FROM generate_series(0, ${APPS - 1}) i`);
    await q(`INSERT INTO application_drafts (user_id, key, step, data)
      SELECT 1 + (i % ${STUDENTS}), 'course-' || (i / ${STUDENTS}), 2, jsonb_build_object(
        'firstName', 'Thandiwe', 'lastName', 'Nkosi', 'addressLine1', '12 Mvudi Street', 'city', 'Thohoyandou',
        'academicHistory', jsonb_build_object('highestQualification', 'NSC', 'institution', 'Mbilwi Secondary School'),
        'documents', jsonb_build_object('idDocument', jsonb_build_object('id', ${id(`${APPS + WITH_TRANSCRIPT} + i + 1`)}, 'name', 'id.pdf', 'size', 1000),
          'transcripts', null))
      FROM generate_series(0, ${DRAFTS - 1}) i`);
    await q('ANALYZE');
  });
  console.log(`seeded ${APPS} applications, ${DRAFTS} drafts, ${UPLOADS} uploads (${ORPHANS} orphans), ${STUDENTS} students in ${seedMs} ms`);

  const before = new Date(Date.now() - ORPHAN_UPLOAD_TTL_MS).toISOString();
  const oldQuery = `SELECT * FROM uploads WHERE created_at < '${before}'
    AND NOT EXISTS (SELECT 1 FROM applications a, jsonb_each_text(a.documents) d WHERE d.value = uploads.id)
    AND NOT EXISTS (SELECT 1 FROM application_drafts r WHERE r.data::text LIKE '%' || uploads.id || '%') LIMIT 500`;
  const newQuery = `SELECT * FROM uploads WHERE created_at < '${before}'
    AND NOT EXISTS (SELECT 1 FROM applications a WHERE upload_refs(a.documents) @> ARRAY[uploads.id])
    AND NOT EXISTS (SELECT 1 FROM application_drafts r WHERE upload_refs(r.data) @> ARRAY[uploads.id]) LIMIT 500`;
  const attachedId = 'up' + String(APPS).padStart(14, '0');
  const report: Record<string, unknown> = { scale: SCALE };
  if (RUN_OLD) {
    report.oldCandidateQueryMs = await explainMs(oldQuery);
    report.oldIsAttachedMs = await explainMs(`SELECT 1 FROM applications WHERE EXISTS (SELECT 1 FROM jsonb_each_text(documents) d WHERE d.value = '${attachedId}') LIMIT 1`);
  }
  report.newCandidateQueryMs = await explainMs(newQuery);
  report.newIsAttachedMs = await explainMs(`SELECT 1 FROM applications WHERE upload_refs(documents) @> ARRAY['${attachedId}'] LIMIT 1`);
  report.orphanUploadRowsMs = await ms(async () => { report.candidates = (await orphanUploadRows(db, new Date(before))).length; });
  report.isAttachedMs = await ms(async () => { report.attached = await isAttached(db, attachedId); });
  const store = { delete: async () => {} } as unknown as DocumentStore;
  // Every orphan, 500 per candidate query, each erased in its own locked transaction as the hourly job does.
  report.fullPurgeMs = await ms(async () => {
    let n = 0, total = 0;
    do { n = await purgeOrphanUploads(db, store); total += n; } while (n > 0);
    report.erased = total;
  });
  report.uploadsLeft = Number((await q('SELECT count(*) AS n FROM uploads')).rows[0].n);
  report.newPlan = (await q(`EXPLAIN ${newQuery}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
  console.log(JSON.stringify(report, null, 2));
  // The plan must probe the GIN indexes; a changed expression would silently fall back to scanning every row.
  if (!String(report.newPlan).includes('applications_upload_refs_idx') || !String(report.newPlan).includes('drafts_upload_refs_idx')) {
    console.error('the purge query does not use the upload_refs indexes'); process.exitCode = 1;
  }
} finally {
  await database.close();
  await fresh.drop();
}
