/**
 * The per-account upload limit holds under parallel uploads (quota.ts, insertUploadWithinQuota): the count and the
 * insert used to be separate statements, so uploads of one account arriving at once all counted the same total and
 * all passed (30 parallel uploads: 26 to 29 stored on PostgreSQL, 25 on PGlite, against a limit of 20). Real HTTP
 * through the app, as in quota.test.ts; the tus path is checked at completion, where uploads created below the limit
 * finish at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { startTestApp, signUpStudent, insertUpload, DB_KIND, type TestApp } from '../../test/harness.ts';
import { uploads } from '../../db/schema/applications.ts';
import { MAX_LIVE_TUS_UPLOADS, MAX_UNATTACHED_UPLOADS } from './quota.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const LIMIT_MESSAGE = `You have ${MAX_UNATTACHED_UPLOADS} documents that are not part of an application. Delete the ones you no longer need, then upload again.`;

const storedBy = async (userId: number) => Number((await t.database.db.select({ n: count() }).from(uploads).where(eq(uploads.userId, userId)))[0].n);
const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe(`per-account upload limit under parallel uploads (${DB_KIND})`, () => {
  it(`30 uploads of one account at once: exactly ${MAX_UNATTACHED_UPLOADS} are stored, the other 10 get 409 upload_limit`, async () => {
    const s = await signUpStudent(t);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => s.agent.post('/api/uploads').attach('file', PDF, `doc-${i}.pdf`)));
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: MAX_UNATTACHED_UPLOADS, 409: 30 - MAX_UNATTACHED_UPLOADS });
    for (const refused of answers.filter((a) => a.status === 409)) expect(refused.body.error).toEqual({ code: 'upload_limit', message: LIMIT_MESSAGE });
    expect(await storedBy(s.user.id)).toBe(MAX_UNATTACHED_UPLOADS);
    // No bytes are left behind for the refused ones: the listing and the store agree.
    expect((await s.agent.get('/api/uploads')).body.uploads).toHaveLength(MAX_UNATTACHED_UPLOADS);
  });

  it('resumable (tus) uploads created below the limit and finishing at once: only those that fit are stored', async () => {
    const s = await signUpStudent(t);
    const room = 2;
    const finishing = 6;
    expect(finishing).toBeLessThanOrEqual(MAX_LIVE_TUS_UPLOADS);
    for (let i = 0; i < MAX_UNATTACHED_UPLOADS - room; i++) await insertUpload(t, s.user.id);
    const locations: string[] = [];
    for (let i = 0; i < finishing; i++) {
      const created = await s.agent.post('/api/uploads/tus').set('Tus-Resumable', '1.0.0').set('Upload-Length', String(PDF.length));
      expect(created.status).toBe(201);
      locations.push(created.headers.location);
    }
    const answers = await Promise.all(locations.map((at) => s.agent.patch(at).set('Tus-Resumable', '1.0.0').set('Upload-Offset', '0')
      .set('Content-Type', 'application/offset+octet-stream').send(PDF)));
    expect(tally(answers.map((a) => a.status))).toEqual({ 200: room, 409: finishing - room });
    for (const refused of answers.filter((a) => a.status === 409)) expect(JSON.parse(refused.text).error).toEqual({ code: 'upload_limit', message: LIMIT_MESSAGE });
    expect(await storedBy(s.user.id)).toBe(MAX_UNATTACHED_UPLOADS);
  });
});
