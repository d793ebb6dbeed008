/**
 * reapplyErasures (npm run restore --erasures-from; privacy audit F2) trusts an account of the source only when its id
 * AND created_at match the restored copy's: another database (staging, another campus) or ids handed out again after
 * an earlier restore must not erase or delete people of the copy (review of the backup/restore changes, finding A).
 * Each test has its own database, since a wrong reapply deletes users by cascade. Runs on PGlite and PostgreSQL.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, DB_KIND, type TestApp } from '../../test/harness.ts';
import { readErasureLedger, reapplyErasures, WrongErasureSource, type ErasureLedger } from './erasure.service.ts';

let t: TestApp;
beforeEach(async () => { t = await startTestApp(); });
afterEach(async () => { await t.close(); });

const q = (text: string, params: unknown[] = []) => t.database.pool.query(text, params);

/** Inserts an applicant and returns their id; with an application and its payment when `withApplication`. */
async function applicant(name: string, withApplication = false): Promise<number> {
  const id = (await q(`insert into users (email, password_hash, first_name, last_name, id_number) values ($1, 'x', $2, 'Nemakonde', '0104125800086') returning id`, [`${name}@example.com`, name])).rows[0].id as number;
  if (withApplication) {
    const course = (await q('select id from courses order by id limit 1')).rows[0].id as number;
    const app = (await q('insert into applications (user_id, course_id, payment_amount) values ($1, $2, 50) returning id', [id, course])).rows[0].id as number;
    await q(`insert into payments (application_id, user_id, method, reference, amount, status) values ($1, $2, 'card', 'REF-1', 50, 'completed')`, [app, id]);
  }
  return id;
}

/** Users, applications and payments of the copy, and each user's e-mail: what a wrong reapply would change. */
async function snapshot() {
  const n = async (table: string) => (await q(`select count(*)::int as n from ${table}`)).rows[0].n as number;
  return { users: await n('users'), applications: await n('applications'), payments: await n('payments'), emails: (await q('select id, email from users order by id')).rows };
}

/** The copy's own ledger, plus the old {userIds, erasedUserIds} fields so the code before the fix reads the same source. */
async function ledgerOfCopy(): Promise<ErasureLedger> {
  return readErasureLedger((text) => q(text));
}
const withOldFields = (ledger: ErasureLedger) => ({ ...ledger, userIds: ledger.users.map((u) => u.id), erasedUserIds: ledger.users.filter((u) => u.erased).map((u) => u.id) }) as ErasureLedger;
const otherTime = (iso: string) => new Date(Date.parse(iso) - 86_400_000 * 40).toISOString();

describe(`restore --erasures-from matches accounts by id and created_at (${DB_KIND})`, () => {
  it('a ledger from another database (same small ids, other accounts) is refused and nothing is erased or deleted', async () => {
    const a = await applicant('amukelani');
    const b = await applicant('bongani', true);
    const c = await applicant('ciara');
    const mine = await ledgerOfCopy();
    const at = (id: number) => otherTime(mine.users.find((u) => u.id === id)!.createdAt);
    // The reviewer's reproduction: the other database has ids a, c and c+5, and has erased its own user c.
    const other = withOldFields({ users: [{ id: a, createdAt: at(a), erased: false }, { id: c, createdAt: at(c), erased: true }, { id: c + 5, createdAt: new Date().toISOString(), erased: false }] });
    const before = await snapshot();
    let planned = false;
    await expect(reapplyErasures(t.database.db, t.store, other, () => { planned = true; })).rejects.toThrow(WrongErasureSource);
    await expect(reapplyErasures(t.database.db, t.store, other)).rejects.toThrow('names another database');
    expect(planned).toBe(false);
    expect(await snapshot()).toEqual(before);
    expect((await q('select first_name from users where id = $1', [b])).rows).toEqual([{ first_name: 'bongani' }]);
  });

  it('ids given to other accounts after an earlier restore are left alone; the same accounts are erased and deleted, listed before', async () => {
    const deleted = await applicant('dumisani');
    const others = [];
    for (let i = 0; i < 12; i++) others.push(await applicant(`other${i}`));
    const withApplication = await applicant('bongani', true);
    const erased = await applicant('ciara');
    const reused = await applicant('rudzani');
    const mine = await ledgerOfCopy();
    // The source: `erased` was erased there, `deleted` deleted their account there, and `reused` is an id the source
    // gave to someone else (created at another time), whom it then erased.
    const source = withOldFields({
      users: mine.users.filter((u) => u.id !== deleted).map((u) => u.id === erased ? { ...u, erased: true } : u.id === reused ? { ...u, createdAt: otherTime(u.createdAt), erased: true } : u),
    });
    const plans: unknown[] = [];
    const done = await reapplyErasures(t.database.db, t.store, source, (plan) => plans.push(plan));
    const createdAt = (id: number) => mine.users.find((u) => u.id === id)!.createdAt;
    expect(done).toEqual({ erased: [{ id: erased, createdAt: createdAt(erased) }], deleted: [{ id: deleted, createdAt: createdAt(deleted) }], reusedIds: [{ id: reused, createdAt: createdAt(reused) }] });
    expect(plans).toEqual([done]);
    const rows = (await q('select id, email, first_name from users where id = any($1) order by id', [[deleted, withApplication, erased, reused]])).rows;
    expect(rows).toEqual([
      { id: withApplication, email: 'bongani@example.com', first_name: 'bongani' },
      { id: erased, email: `erased-${erased}@erased.invalid`, first_name: 'Erased' },
      { id: reused, email: 'rudzani@example.com', first_name: 'rudzani' },
    ]);
    expect((await q('select count(*)::int as n from applications where user_id = $1', [withApplication])).rows).toEqual([{ n: 1 }]);
  });

  it('a source that lacks an account with applications here (never deleted from the profile page) is refused', async () => {
    const b = await applicant('bongani', true);
    const c = await applicant('ciara');
    await applicant('later');
    const mine = await ledgerOfCopy();
    const source = withOldFields({ users: mine.users.filter((u) => u.id !== b).map((u) => u.id === c ? { ...u, erased: true } : u) });
    const before = await snapshot();
    await expect(reapplyErasures(t.database.db, t.store, source)).rejects.toThrow(`lacks user ${b}`);
    expect(await snapshot()).toEqual(before);
  });
});
