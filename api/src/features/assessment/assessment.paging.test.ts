import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, signInAdmin, DB_KIND, type TestApp } from '../../test/harness.ts';

// Volume audit: /admin/bookings showed the newest 500 bookings of 1 000, with no paging and no total.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await t.database.db.execute(sql`
    insert into assessment_bookings (data, email, preferred_date, created_at)
    select jsonb_build_object('firstName', 'Booker', 'lastName', lpad(g::text, 4, '0'), 'email', 'booker' || g || '@example.com', 'phone', '0820000000',
        'preferredCampus', 'siloam', 'courseInterest', 'it', 'assessmentType', 'placement', 'preferredDate', '2027-03-01', 'preferredTime', 'morning'),
      'booker' || g || '@example.com', '2027-03-01', timestamptz '2026-01-01T00:00:00Z' + g * interval '1 hour'
    from generate_series(1, 1000) g`);
});
afterAll(async () => { await t.close(); });

describe(`admin assessment bookings at volume (${DB_KIND})`, () => {
  it('GET /api/admin/assessment-bookings › pages newest first with the total, down to the oldest booking', async () => {
    const { agent } = await signInAdmin(t);
    const first = await agent.get('/api/admin/assessment-bookings');
    expect(first.body).toMatchObject({ total: 1000, page: 1, pageSize: 25, pages: 40 });
    expect(first.body.bookings[0].lastName).toBe('1000');
    const last = await agent.get('/api/admin/assessment-bookings?page=10&pageSize=100');
    expect(last.body.bookings).toHaveLength(100);
    expect(last.body.bookings.at(-1).lastName).toBe('0001');
  });
});
