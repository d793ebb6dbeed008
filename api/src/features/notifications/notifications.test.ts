import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { notifications } from '../../db/schema/messaging.ts';
import { startTestApp, signUpStudent, signInAdmin, insertUpload, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

async function apply(s: Awaited<ReturnType<typeof signUpStudent>>, courseId: number) {
  const idDocument = await insertUpload(t, s.user.id);
  const transcripts = await insertUpload(t, s.user.id);
  return (await s.agent.post('/api/applications').send(validApplication(courseId, { idDocument, transcripts }))).body.application;
}

describe(`notifications (${DB_KIND})`, () => {
  it('GET /api/notifications and /api/colfront/notifications › one on submit and one per status change, newest first', async () => {
    const s = await signUpStudent(t);
    const app = await apply(s, 1);
    const admin = await signInAdmin(t);
    await admin.agent.put(`/api/admin/applications/${app.id}/status`).send({ status: 'under_review' });
    const res = await s.agent.get('/api/notifications');
    expect(res.status).toBe(200);
    expect(res.body.notifications.map((n: any) => n.message)).toEqual([
      `Your application APP-${app.id} is now: Under Review.`,
      expect.stringContaining(`(APP-${app.id}) has been received`),
    ]);
    expect(res.body.notifications.every((n: any) => n.read === false && n.applicationId === app.id)).toBe(true);
    expect((await s.agent.get('/api/colfront/notifications')).body).toEqual(res.body);
    expect((await t.request().get('/api/colfront/notifications')).status).toBe(401);
  });

  it('PUT /api/notifications/:id/read and /read-all › mark mine; another student\'s id is 404 and stays unread', async () => {
    const a = await signUpStudent(t);
    const b = await signUpStudent(t);
    await apply(a, 2); await apply(a, 3); await apply(b, 2);
    const [n1] = (await a.agent.get('/api/notifications')).body.notifications;
    const res = await a.agent.put(`/api/notifications/${n1.id}/read`);
    expect(res.status).toBe(200);
    expect(res.body.notification).toMatchObject({ id: n1.id, read: true });
    const bId = (await b.agent.get('/api/notifications')).body.notifications[0].id;
    expect((await a.agent.put(`/api/notifications/${bId}/read`)).status).toBe(404);
    expect((await b.agent.get('/api/notifications')).body.notifications[0].read).toBe(false);
    expect((await a.agent.put('/api/notifications/read-all')).body).toEqual({ updated: 1 });
    expect((await a.agent.get('/api/notifications')).body.notifications.every((n: any) => n.read)).toBe(true);
    expect((await b.agent.get('/api/notifications')).body.notifications[0].read).toBe(false);
    expect((await a.agent.put('/api/notifications/abc/read')).status).toBe(400);
  });

  it('GET /api/notifications › counts every unread one, not only the newest page, and pages older ones by id without gaps or repeats', async () => {
    const s = await signUpStudent(t);
    const other = await signUpStudent(t);
    // 130 notifications: the 40 oldest unread, the newest 90 read (the newest page all read); 10 share one created_at.
    const base = Date.UTC(2026, 0, 1);
    const rows = Array.from({ length: 130 }, (_, i) => ({ userId: s.user.id, message: `n${i}`, read: i >= 40, createdAt: new Date(base + (i < 10 ? 0 : i) * 60_000) }));
    await t.database.db.insert(notifications).values(rows);
    await t.database.db.insert(notifications).values({ userId: other.user.id, message: 'not yours', createdAt: new Date(base + 5 * 60_000) });

    const first = await s.agent.get('/api/notifications');
    expect(first.status).toBe(200);
    expect(first.body.unreadCount).toBe(40);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.notifications).toHaveLength(50);
    expect(first.body.notifications.every((n: any) => n.read)).toBe(true);
    const seen: string[] = first.body.notifications.map((n: any) => n.message);
    let page = first.body;
    while (page.hasMore) {
      const last = page.notifications.at(-1).id;
      page = (await s.agent.get(`/api/colfront/notifications?before=${last}&limit=30`)).body;
      expect(page.unreadCount).toBe(40);
      seen.push(...page.notifications.map((n: any) => n.message));
    }
    // Newest first: created_at descending, the id (insertion order here) breaking the tie of the 10 oldest.
    expect(seen).toEqual(rows.map((r) => r.message).reverse());

    expect((await s.agent.put('/api/notifications/read-all')).body).toEqual({ updated: 40 });
    expect((await s.agent.get('/api/notifications?limit=1')).body).toMatchObject({ unreadCount: 0, hasMore: true });
    // Someone else's id as the cursor reveals nothing.
    const theirs = (await other.agent.get('/api/notifications')).body.notifications[0].id;
    expect((await s.agent.get(`/api/notifications?before=${theirs}`)).body).toEqual({ notifications: [], unreadCount: 0, hasMore: false });
    for (const q of ['limit=0', 'limit=101', 'limit=x', 'before=-1', 'before=1.5']) expect((await s.agent.get(`/api/notifications?${q}`)).status, q).toBe(400);
  });

  it('a page is one walk of notifications_user_created_idx (user, newest first, keyset by id)', async () => {
    const plan = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const r = await tx.execute(sql`EXPLAIN SELECT id FROM notifications WHERE user_id = 1 AND (created_at, id) < (now(), 5) ORDER BY created_at DESC, id DESC LIMIT 51`);
      return (r as unknown as { rows: Record<string, string>[] }).rows.map((x) => Object.values(x)[0]).join('\n');
    });
    expect(plan).toContain('notifications_user_created_idx');
  });
});
