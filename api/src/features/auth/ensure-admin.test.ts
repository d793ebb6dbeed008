import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, uniqueEmail, DB_KIND, type TestApp } from '../../test/harness.ts';
import { ensureAdmin } from './auth.service.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

describe(`ensureAdmin (${DB_KIND})`, () => {
  it('admins created without names (ADMIN_EMAIL at start-up, admin:create without --first-name) are told apart by their e-mail', async () => {
    const [one, two] = [uniqueEmail('admin1'), uniqueEmail('admin2')];
    const a = await ensureAdmin(t.database.db, one, 'admin-pass-123');
    const b = await ensureAdmin(t.database.db, two.toUpperCase(), 'admin-pass-123');
    expect([a.firstName, a.lastName]).toEqual([one.split('@')[0], '']);
    expect([b.firstName, b.lastName]).toEqual([two.split('@')[0], '']);
    const named = await ensureAdmin(t.database.db, uniqueEmail('admin3'), 'admin-pass-123', { firstName: 'Thandi', lastName: 'Mokoena' });
    expect([named.firstName, named.lastName]).toEqual(['Thandi', 'Mokoena']);
  });
});
