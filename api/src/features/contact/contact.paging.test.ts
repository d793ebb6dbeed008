import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, signInAdmin, DB_KIND, type TestApp } from '../../test/harness.ts';

// Volume audit: /admin/messages showed the newest 500 messages of 3 000, with no paging and no total.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await t.database.db.execute(sql`
    insert into contact_messages (first_name, last_name, email, message, created_at)
    select 'Writer', lpad(g::text, 3, '0'), 'writer' || g || '@example.com', 'Message number ' || g, timestamptz '2026-01-01T00:00:00Z' + g * interval '1 hour'
    from generate_series(1, 503) g`);
});
afterAll(async () => { await t.close(); });

describe(`admin contact messages at volume (${DB_KIND})`, () => {
  it('GET /api/admin/contact-messages › pages newest first with the total, down to the oldest message', async () => {
    const { agent } = await signInAdmin(t);
    const first = await agent.get('/api/admin/contact-messages');
    expect(first.body).toMatchObject({ total: 503, page: 1, pageSize: 25, pages: 21 });
    expect(first.body.messages).toHaveLength(25);
    expect(first.body.messages[0].lastName).toBe('503');
    const last = await agent.get('/api/admin/contact-messages?page=21');
    expect(last.body.messages.map((m: any) => m.lastName)).toEqual(['003', '002', '001']);
    expect((await agent.get('/api/admin/contact-messages?pageSize=1000')).status).toBe(400);
  });

  it('GET /api/admin/contact-messages › a page past the last (page 30 of 21) answers the last page, with page = pages', async () => {
    const { agent } = await signInAdmin(t);
    const past = await agent.get('/api/admin/contact-messages?page=30');
    expect(past.body).toMatchObject({ total: 503, page: 21, pageSize: 25, pages: 21 });
    expect(past.body.messages.map((m: any) => m.lastName)).toEqual(['003', '002', '001']);
  });
});
