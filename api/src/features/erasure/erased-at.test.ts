/**
 * Erasure is recorded in users.erased_at (migration 0029), not told by the address erased-<id>@erased.invalid, which
 * anyone could register before the address rule refused .invalid (security review HIGH): registering it made the
 * admin's Erase of user <id> fail with a 500 on users_email_uq, and a restore's --erasures-from took such accounts for
 * erased ones. Runs on PGlite and PostgreSQL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signUpStudent, signInAdmin, insertUpload, validApplication, validRegistration, DB_KIND, type TestApp } from '../../test/harness.ts';
import { mailsTo } from '../../test/mail.ts';
import { RESERVED_EMAIL_MESSAGE } from '#contracts/mailbox.ts';
import { readErasureLedger, reapplyErasures } from './erasure.service.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const q = (text: string, params: unknown[] = []) => t.database.pool.query(text, params);

/** A student with an application who pressed Delete my account (which files an erasure request); its id and request. */
async function studentAskingErasure() {
  const s = await signUpStudent(t);
  const docs = { idDocument: await insertUpload(t, s.user.id), transcripts: await insertUpload(t, s.user.id) };
  expect((await s.agent.post('/api/applications').send(validApplication(1, docs))).status).toBe(201);
  const del = await s.agent.post('/api/profile/delete').send({ password: s.password });
  expect(del.status).toBe(202);
  return { s, requestId: del.body.requestId as number };
}

/** An account as registration made it before the address rule: `email`, an argon2-like hash, any names it chose. */
async function registeredBeforeTheRule(email: string, names = { first: 'Mallory', last: 'Attacker' }): Promise<number> {
  return (await q(`insert into users (email, password_hash, first_name, last_name) values ($1, '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA', $2, $3) returning id`, [email, names.first, names.last])).rows[0].id as number;
}

/** The row erasure anonymised before erased_at existed (or a node of an older release): the address, the hash, the name. */
async function erasedByAnOlderRelease(): Promise<number> {
  const id = (await q(`insert into users (email, password_hash, first_name, last_name, id_number) values ($1, 'x', 'Ndivhuwo', 'Ramabulana', '0104125800086') returning id`, [`older.${process.pid}.${Date.now()}@example.com`])).rows[0].id as number;
  await q(`update users set email = 'erased-' || id || '@erased.invalid', password_hash = '!erased', first_name = 'Erased', last_name = 'applicant', id_number = null, erased_at = null, updated_at = '2025-03-04T05:06:07Z' where id = $1`, [id]);
  return id;
}

const row = async (id: number) => (await q('select email, first_name, erased_at from users where id = $1', [id])).rows[0] as { email: string; first_name: string; erased_at: Date | null };

describe(`users.erased_at records an erasure (${DB_KIND}, security review HIGH)`, () => {
  it('POST /api/auth/register › erased-<id>@erased.invalid, the address erasure gives user <id>, is refused with a field message', async () => {
    const s = await signUpStudent(t);
    const res = await t.request().post('/api/auth/register').send(validRegistration({ email: `erased-${s.user.id}@erased.invalid` }));
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({ email: RESERVED_EMAIL_MESSAGE });
  });

  it('erase › when another account already holds erased-<id>@erased.invalid (registered before the rule), Erase of <id> answers 200 with a suffixed address; that account is left as it was', async () => {
    const { s, requestId } = await studentAskingErasure();
    const squatter = await registeredBeforeTheRule(`erased-${s.user.id}@erased.invalid`);
    const admin = await signInAdmin(t);
    const res = await admin.agent.post(`/api/admin/erasure-requests/${requestId}`).send({ decision: 'erase' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const erased = await row(s.user.id);
    expect(erased).toMatchObject({ email: expect.stringMatching(new RegExp(`^erased-${s.user.id}-[0-9a-f]{12}@erased\\.invalid$`)), first_name: 'Erased', erased_at: expect.any(Date) });
    expect(await row(squatter)).toEqual({ email: `erased-${s.user.id}@erased.invalid`, first_name: 'Mallory', erased_at: null });
    expect(await mailsTo(t, s.email, 'Your personal data has been erased')).toHaveLength(1);
  });

  it('erase › with the address free, the account gets erased-<id>@erased.invalid and erased_at, set in the same transaction as the anonymisation', async () => {
    const { s, requestId } = await studentAskingErasure();
    const admin = await signInAdmin(t);
    expect((await admin.agent.post(`/api/admin/erasure-requests/${requestId}`).send({ decision: 'erase' })).status).toBe(200);
    const erased = await row(s.user.id);
    expect(erased.email).toBe(`erased-${s.user.id}@erased.invalid`);
    expect(erased.erased_at).toEqual(expect.any(Date));
    const updated = (await q('select updated_at from users where id = $1', [s.user.id])).rows[0].updated_at as Date;
    expect(erased.erased_at!.getTime()).toBe(updated.getTime());
  });

  it('readErasureLedger › erased = erased_at set, or the exact row an older release wrote; an account merely holding such an address is not', async () => {
    const { s, requestId } = await studentAskingErasure();
    const admin = await signInAdmin(t);
    expect((await admin.agent.post(`/api/admin/erasure-requests/${requestId}`).send({ decision: 'erase' })).status).toBe(200);
    const older = await erasedByAnOlderRelease();
    const squatters = [
      await registeredBeforeTheRule(`erased-${older + 1000}@erased.invalid`),
      await registeredBeforeTheRule(`erased-x${older}@erased.invalid`, { first: 'Erased', last: 'applicant' }),
    ];
    // One that guessed its own id and chose the erased name: only the password hash tells it apart.
    const own = await registeredBeforeTheRule(`own.${Date.now()}@example.com`, { first: 'Erased', last: 'applicant' });
    await q(`update users set email = 'erased-' || id || '@erased.invalid' where id = $1`, [own]);
    const ledger = await readErasureLedger((text) => q(text));
    const erased = (id: number) => ledger.users.find((u) => u.id === id)?.erased;
    expect([erased(s.user.id), erased(older), ...squatters.map(erased), erased(own)]).toEqual([true, true, false, false, false]);
  });

  it('restore --erasures-from › accounts holding erased-…@erased.invalid in the source are not erased again in the copy', async () => {
    const squatter = await registeredBeforeTheRule(`erased-${Date.now() % 100000}@erased.invalid`);
    const before = await row(squatter);
    const ledger = await readErasureLedger((text) => q(text));
    const done = await reapplyErasures(t.database.db, t.store, ledger);
    expect(done.erased).toEqual([]);
    expect(await row(squatter)).toEqual(before);
  });

  it('migration 0029 › backfills erased_at only for rows an erasure wrote (when: the request\'s decision, else the last update); accounts that registered such an address stay not erased', async () => {
    const withRequest = await erasedByAnOlderRelease();
    await q(`insert into erasure_requests (user_id, status, resolved_at) values ($1, 'done', '2025-02-03T04:05:06Z')`, [withRequest]);
    const withoutRequest = await erasedByAnOlderRelease();
    const squatter = await registeredBeforeTheRule(`erased-${withRequest + 2000}@erased.invalid`, { first: 'Erased', last: 'applicant' });
    const own = await registeredBeforeTheRule(`own2.${Date.now()}@example.com`, { first: 'Erased', last: 'applicant' });
    await q(`update users set email = 'erased-' || id || '@erased.invalid' where id = $1`, [own]);
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../db/migrations/0029_erased_at.sql');
    const [, backfill] = fs.readFileSync(file, 'utf8').split('--> statement-breakpoint');
    await q(backfill!);
    const at = async (id: number) => (await row(id)).erased_at?.toISOString() ?? null;
    expect([await at(withRequest), await at(withoutRequest), await at(squatter), await at(own)])
      .toEqual(['2025-02-03T04:05:06.000Z', '2025-03-04T05:06:07.000Z', null, null]);
  });
});

describe(`readErasureLedger on a source not yet at migration 0029 (${DB_KIND})`, () => {
  it('reads the rule older releases wrote: their erasures count, an account holding such an address does not', async () => {
    const older = await erasedByAnOlderRelease();
    const squatter = await registeredBeforeTheRule(`erased-${older}x@erased.invalid`);
    const rows = new Map<number, boolean>();
    // The source as an older release left it: no erased_at column (the query sees the table without it).
    const ledger = await readErasureLedger(async (text) => {
      if (/information_schema\.columns/.test(text)) return { rows: [{ n: 0 }] };
      if (/erased_at/.test(text)) throw new Error(`column "erased_at" does not exist: ${text}`);
      return q(text);
    });
    for (const u of ledger.users) rows.set(u.id, u.erased);
    expect([rows.get(older), rows.get(squatter)]).toEqual([true, false]);
  });
});
