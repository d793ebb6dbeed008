import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { startTestApp, signUpStudent, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { applications, uploads } from '../../db/schema/applications.ts';
import { UPLOAD_THE_DOCUMENT } from '#contracts/applications.ts';
import { purgeOrphanUploads, ORPHAN_UPLOAD_TTL_MS } from './uploads.service.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

type Student = Awaited<ReturnType<typeof signUpStudent>>;
async function upload(s: Student, name: string): Promise<string> {
  const res = await s.agent.post('/api/uploads').attach('file', PDF, { filename: name, contentType: 'application/pdf' });
  expect(res.status).toBe(201);
  return res.body.upload.id;
}

/**
 * Resolves once another connection waits for a row lock (PostgreSQL), or once `other` has settled: the moment to let
 * the first party go on. PGlite serves one query at a time, so there the other party simply waits for the database;
 * a short pause gives its request time to arrive (the assertions hold whichever way the order falls).
 */
async function untilBlockedOr(other: Promise<unknown>): Promise<void> {
  let settled = false;
  void other.then(() => { settled = true; }, () => { settled = true; });
  if (DB_KIND !== 'postgres') { await Promise.race([other, new Promise((r) => setTimeout(r, 300))]); return; }
  for (let i = 0; i < 400 && !settled; i++) {
    const { rows } = await t.database.pool.query("select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
    if (rows[0].n > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Holds `t.store.delete` for its next call until `release()`; `started` resolves when that call arrives. */
function holdStoreDelete() {
  const original = t.store.delete.bind(t.store);
  let release!: () => void;
  let started!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const startedP = new Promise<void>((r) => { started = r; });
  t.store.delete = async (key: string) => { started(); await gate; return original(key); };
  return { started: startedP, release: () => { t.store.delete = original; release(); } };
}

const rowsOf = async (ids: string[]) => (await t.database.db.select({ id: uploads.id }).from(uploads).where(inArray(uploads.id, ids))).map((r) => r.id);

describe(`an upload deleted while an application cites it (${DB_KIND})`, () => {
  it('DELETE /api/uploads/:id first, POST /api/applications meanwhile › the delete answers 204 and the submission 400 "upload the document", nothing stored', async () => {
    const s = await signUpStudent(t);
    const idDocument = await upload(s, 'id.pdf');
    const transcripts = await upload(s, 'results.pdf');
    const hold = holdStoreDelete();
    const del = s.agent.delete(`/api/uploads/${idDocument}`).then((r) => r);
    await hold.started; // the delete has checked the upload is not attached and is removing it
    const submit = s.agent.post('/api/applications').send(validApplication(1, { idDocument, transcripts })).then((r) => r);
    await untilBlockedOr(submit);
    hold.release();
    const [d, sub] = await Promise.all([del, submit]);
    expect([d.status, sub.status]).toEqual([204, 400]);
    expect(sub.body.error.fields['documents.idDocument']).toBe(UPLOAD_THE_DOCUMENT);
    expect(await t.database.db.select().from(applications).where(eq(applications.userId, s.user.id))).toEqual([]);
  });

  it('a transaction citing the upload first, DELETE /api/uploads/:id meanwhile › the delete waits and answers 409; the file stays', async () => {
    const s = await signUpStudent(t);
    const idDocument = await upload(s, 'id.pdf');
    const transcripts = await upload(s, 'results.pdf');
    const created = await s.agent.post('/api/applications').send(validApplication(2, { idDocument, transcripts }));
    expect(created.status).toBe(201);
    const fresh = await upload(s, 'letter.pdf');
    let del: Promise<{ status: number }> | undefined;
    // What submitApplication, addMissingDocuments and replaceDocument do: lock the cited upload, then store the reference.
    await t.database.db.transaction(async (tx) => {
      await tx.select({ id: uploads.id }).from(uploads).where(eq(uploads.id, fresh)).for('share');
      await tx.update(applications).set({ documents: { idDocument, transcripts, recommendationLetter: fresh } }).where(eq(applications.id, created.body.application.id));
      del = s.agent.delete(`/api/uploads/${fresh}`).then((r) => r);
      await untilBlockedOr(del);
    });
    const d = await del!;
    expect(d.status).toBe(409);
    expect(await rowsOf([fresh])).toEqual([fresh]);
    expect((await s.agent.get(`/api/uploads/${fresh}`)).status).toBe(200);
  });

  it('the hourly purge and a transaction citing an old upload › the purge waits, finds it attached and keeps it', async () => {
    const s = await signUpStudent(t);
    const idDocument = await upload(s, 'id.pdf');
    const transcripts = await upload(s, 'results.pdf');
    await t.database.db.update(uploads).set({ createdAt: new Date(Date.now() - ORPHAN_UPLOAD_TTL_MS - 60_000) }).where(inArray(uploads.id, [idDocument, transcripts]));
    let purge: Promise<number> | undefined;
    await t.database.db.transaction(async (tx) => {
      await tx.select({ id: uploads.id }).from(uploads).where(inArray(uploads.id, [idDocument, transcripts])).for('share');
      await tx.insert(applications).values({ userId: s.user.id, courseId: 3, status: 'pending', personal: {}, academicHistory: {}, documents: { idDocument, transcripts }, paymentStatus: 'completed', paymentAmount: '50.00' });
      purge = purgeOrphanUploads(t.database.db, t.store);
      await untilBlockedOr(purge);
    });
    expect(await purge!).toBe(0);
    expect((await rowsOf([idDocument, transcripts])).sort()).toEqual([idDocument, transcripts].sort());
  });

  it('submit and delete at the same moment, repeatedly › never both succeed, and a stored application\'s documents all exist', async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 8; i++) {
      const s = await signUpStudent(t);
      const idDocument = await upload(s, 'id.pdf');
      const transcripts = await upload(s, 'results.pdf');
      const [sub, d] = await Promise.all([
        s.agent.post('/api/applications').send(validApplication(1, { idDocument, transcripts })).then((r) => r),
        s.agent.delete(`/api/uploads/${idDocument}`).then((r) => r),
      ]);
      outcomes.push(`${sub.status}+${d.status}`);
      expect(['201+409', '400+204']).toContain(`${sub.status}+${d.status}`);
      const stored = await t.database.db.select().from(applications).where(eq(applications.userId, s.user.id));
      for (const a of stored) {
        const ids = Object.values(a.documents as Record<string, string>);
        expect((await rowsOf(ids)).sort()).toEqual([...ids].sort());
      }
    }
    console.info(`submit+delete outcomes (${DB_KIND}): ${outcomes.join(', ')}`);
  });
});
