/**
 * Rate limits on shared addresses (reliability audit L; ASVS 5.0 V2.2.1): a school computer lab registers 30
 * learners from one address, and South African mobile carriers put many phones behind one carrier-grade NAT address.
 * Every limit below is reached through the API from one client address (X-Forwarded-For with TRUST_PROXY=1, a fresh
 * address per test so the tests do not share counters), and each test says what a learner would notice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { startTestApp, DB_KIND, validRegistration, uniqueEmail, type TestApp } from '../test/harness.ts';
import { deliveredMails } from '../test/mail.ts';
import { todayInSouthAfrica } from '#contracts/assessment.ts';
import { RESET_SENT_MESSAGE } from '../features/auth/auth.routes.ts';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';

let t: TestApp;
const SOFT = 3;
beforeAll(async () => { t = await startTestApp({ TRUST_PROXY: '1', REGISTER_SOFT_LIMIT: String(SOFT), REGISTER_POW_COST: '1' }); });
afterAll(async () => { await t?.close(); });

let ipCounter = 0;
/** A fresh client address for one test (a "lab"). */
const freshIp = () => `198.51.100.${++ipCounter}`;
const post = (ip: string, path: string, body: unknown) => t.request().post(path).set('X-Forwarded-For', ip).send(body as object);
const randomToken = () => crypto.randomBytes(32).toString('base64url');

/** The token of the newest link of `kind` ('verify-email' | 'reset-password') mailed to each address, by address. */
async function linkTokens(kind: string): Promise<Map<string, string>> {
  const byAddress = new Map<string, string>();
  for (const m of await deliveredMails(t)) {
    const found = m.text.match(new RegExp(`${kind}#token=([A-Za-z0-9_-]+)`));
    if (found) byAddress.set(m.to, found[1]!);
  }
  return byAddress;
}

/** Registers `n` learners from `ip` below the registration soft limit (each from its own address). */
async function registerLab(n: number): Promise<string[]> {
  const emails: string[] = [];
  for (let i = 0; i < n; i++) {
    const body = validRegistration({ email: uniqueEmail('lab') });
    const res = await post(freshIp(), '/api/auth/register', body);
    expect(res.status, `registration ${i + 1}`).toBe(201);
    emails.push(body.email);
  }
  return emails;
}

describe(`limits on a shared address (${DB_KIND})`, () => {
  it('A › 30 learners verify their e-mail from one address: all 200; bad links are still limited (21st → 429)', async () => {
    const emails = await registerLab(30);
    const tokens = await linkTokens('verify-email');
    const lab = freshIp();
    const statuses: number[] = [];
    for (const e of emails) statuses.push((await post(lab, '/api/auth/verify-email', { token: tokens.get(e.toLowerCase()) })).status);
    expect(statuses).toEqual(Array(30).fill(200));
    const guesser = freshIp();
    const bad: number[] = [];
    for (let i = 0; i < 21; i++) bad.push((await post(guesser, '/api/auth/verify-email', { token: randomToken() })).status);
    expect(bad.slice(0, 20)).toEqual(Array(20).fill(400));
    expect(bad[20]).toBe(429);
    // The guesser's address is refused; the lab's, which only used good links, is not.
    const more = await registerLab(1);
    const tok = (await linkTokens('verify-email')).get(more[0]!.toLowerCase());
    expect((await post(guesser, '/api/auth/verify-email', { token: tok })).status).toBe(429);
    expect((await post(lab, '/api/auth/verify-email', { token: tok })).status).toBe(200);
  }, 120_000);

  it('C › 30 learners from one address each request and complete a password reset; bad reset links are limited', async () => {
    const emails = await registerLab(30);
    const lab = freshIp();
    for (const e of emails) expect((await post(lab, '/api/auth/reset-password', { email: e })).status, `request for ${e}`).toBe(200);
    const tokens = await linkTokens('reset-password');
    const confirmed: number[] = [];
    for (const e of emails) {
      confirmed.push((await post(lab, '/api/auth/reset-password/confirm', { token: tokens.get(e.toLowerCase()), password: 'Learner-pass-2027', confirmPassword: 'Learner-pass-2027' })).status);
    }
    expect(confirmed).toEqual(Array(30).fill(200));
    for (const e of emails.slice(0, 3)) expect((await post(lab, '/api/auth/login', { email: e, password: 'Learner-pass-2027' })).status).toBe(200);
    const guesser = freshIp();
    const bad: number[] = [];
    for (let i = 0; i < 21; i++) bad.push((await post(guesser, '/api/auth/reset-password/confirm', { token: randomToken(), password: 'Learner-pass-2027', confirmPassword: 'Learner-pass-2027' })).status);
    expect(bad.slice(0, 20)).toEqual(Array(20).fill(400));
    expect(bad[20]).toBe(429);
    // One address asked for over and over from elsewhere (security audit F2): past the per-address limit the answer
    // stays the normal one, so nobody can stop the owner asking for a link, but no further mail is sent.
    const target = emails[1]!;
    const asker = freshIp();
    // With the lab's request above, 20 requests for this address.
    for (let i = 0; i < 19; i++) expect((await post(asker, '/api/auth/reset-password', { email: target.toUpperCase() })).status).toBe(200);
    const mailedBefore = (await deliveredMails(t)).filter((m) => m.to === target.toLowerCase()).length;
    const owner = await post(freshIp(), '/api/auth/reset-password', { email: target });
    expect(owner.status).toBe(200);
    expect(owner.body.message).toBe(RESET_SENT_MESSAGE);
    expect((await deliveredMails(t)).filter((m) => m.to === target.toLowerCase()).length).toBe(mailedBefore);
  }, 120_000);

  it('D › 30 different people from one address send a contact message and book the assessment centre; the 6th from one e-mail is refused', async () => {
    const lab = freshIp();
    const d = new Date(`${todayInSouthAfrica()}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + 3);
    while ([0, 6].includes(d.getUTCDay())) d.setUTCDate(d.getUTCDate() + 1);
    const booking = (email: string) => ({
      firstName: 'Mpho', lastName: 'Mudau', email, phone: '0821234567', dateOfBirth: '2004-05-06', idNumber: '0405065123086',
      preferredCampus: 'biaba', courseInterest: 'information-technology', assessmentType: 'combined', preferredDate: d.toISOString().slice(0, 10),
      preferredTime: 'morning', educationLevel: 'grade-12', specialNeeds: '', additionalNotes: '',
    });
    const contact: number[] = [];
    const bookings: number[] = [];
    for (let i = 0; i < 30; i++) {
      const email = uniqueEmail('form');
      contact.push((await post(lab, '/api/contact', { firstName: 'Lab', lastName: 'Learner', email, phone: '', message: 'When does registration for 2027 close please?' })).status);
      bookings.push((await post(lab, '/api/assessment-centre', booking(email))).status);
    }
    expect(contact).toEqual(Array(30).fill(201));
    expect(bookings).toEqual(Array(30).fill(201));
    const same = uniqueEmail('same');
    const sent: number[] = [];
    for (let i = 0; i < 6; i++) sent.push((await post(freshIp(), '/api/contact', { firstName: 'Same', lastName: 'Person', email: i % 2 ? same.toUpperCase() : same, phone: '', message: `Message number ${i + 1} to the office.` })).status);
    expect(sent.slice(0, 5)).toEqual(Array(5).fill(201));
    expect(sent[5]).toBe(429);
    const refused = await post(freshIp(), '/api/contact', { firstName: 'Same', lastName: 'Person', email: same, phone: '', message: 'Message number 7 to the office.' });
    expect(refused.body.error.message).toBe('Too many messages from this address. Please try again later or call us.');
    // Plus-addressing and Gmail's dots reach the same mailbox, so they count as one address (security audit F3).
    const box = uniqueEmail('box').split('@')[0]!;
    const tagged: number[] = [];
    for (let i = 1; i <= 6; i++) tagged.push((await post(freshIp(), '/api/contact', { firstName: 'Tag', lastName: 'Person', email: `${box}+${i}@example.com`, phone: '', message: `Message number ${i} to the office.` })).status);
    expect(tagged).toEqual([201, 201, 201, 201, 201, 429]);
    const gmail: number[] = [];
    const plain = box.replace(/\./g, '');
    for (let i = 1; i <= 6; i++) {
      const email = `${plain.slice(0, i)}.${plain.slice(i)}+n${i}@${i % 2 ? 'Gmail.com' : 'googlemail.com'}`;
      gmail.push((await post(freshIp(), '/api/contact', { firstName: 'Dot', lastName: 'Person', email, phone: '', message: `Message number ${i} to the office.` })).status);
    }
    expect(gmail).toEqual([201, 201, 201, 201, 201, 429]);
  }, 120_000);

  it('E › registrations refused for bad input do not count toward the proof-of-work threshold', async () => {
    const lab = freshIp();
    for (let i = 0; i < SOFT + 2; i++) expect((await post(lab, '/api/auth/register', validRegistration({ confirmPassword: 'does-not-match-1' }))).status).toBe(400);
    for (let i = 0; i < SOFT; i++) expect((await post(lab, '/api/auth/register', validRegistration())).status, `registration ${i + 1}`).toBe(201);
    const over = await post(lab, '/api/auth/register', validRegistration());
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('challenge_required');
  }, 60_000);

  it('G › registering with e-mails that already have accounts: the first 5 an hour from one address answer 409, then the proof-of-work; a lab retrying is not refused', async () => {
    const taken = await registerLab(7);
    const prober = freshIp();
    const answers: string[] = [];
    for (const email of taken) {
      const res = await post(prober, '/api/auth/register', validRegistration({ email }));
      answers.push(res.status === 429 ? res.body.error.code : String(res.status));
    }
    expect(answers).toEqual(['409', '409', '409', '409', '409', 'challenge_required', 'challenge_required']);
    // Solved, the request is answered as before (409 for a taken address, 201 for a new one), one proof each.
    const solve = async (challenge: any) => {
      const solution = await solveChallenge({ challenge, deriveKey });
      return Buffer.from(JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution })).toString('base64');
    };
    const fresh = validRegistration();
    const asked = await post(prober, '/api/auth/register', fresh);
    expect(asked.body.error?.code).toBe('challenge_required');
    expect((await post(prober, '/api/auth/register', { ...fresh, altcha: await solve(asked.body.challenge) })).status).toBe(201);
    // Another address (a lab whose learners register once each) is not affected.
    expect((await post(freshIp(), '/api/auth/register', validRegistration({ email: taken[0] }))).status).toBe(409);
  }, 120_000);

  it('F › when queueing the verification mail fails, no half-made account is left, and registering again works', async () => {
    const email = uniqueEmail('crash');
    // The first insert into mail_outbox for this address fails (a sequence is not rolled back with the transaction).
    await t.database.db.execute(sql.raw(`CREATE SEQUENCE IF NOT EXISTS fail_once_seq`));
    await t.database.db.execute(sql.raw(`CREATE OR REPLACE FUNCTION fail_mail_once() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW."to" = '${email}' AND nextval('fail_once_seq') = 1 THEN RAISE EXCEPTION 'injected enqueue failure'; END IF; RETURN NEW; END $$`));
    await t.database.db.execute(sql.raw(`CREATE TRIGGER fail_mail_once BEFORE INSERT ON mail_outbox FOR EACH ROW EXECUTE FUNCTION fail_mail_once()`));
    const origError = console.error;
    console.error = () => {};
    try {
      const body = validRegistration({ email });
      const first = await post(freshIp(), '/api/auth/register', body);
      expect(first.status).toBe(500);
      const users = ((await t.database.db.execute(sql`SELECT id FROM users WHERE email = ${email}`)) as any).rows as unknown[];
      const mails = ((await t.database.db.execute(sql`SELECT id FROM mail_outbox WHERE "to" = ${email}`)) as any).rows as unknown[];
      // Either nothing was written, or the account and its mail both were.
      expect(users.length === 0 || mails.length > 0, `users ${users.length}, verification mails ${mails.length}`).toBe(true);
      const retry = await post(freshIp(), '/api/auth/register', body);
      expect(retry.status).toBe(201);
      expect((await linkTokens('verify-email')).has(email.toLowerCase())).toBe(true);
    } finally {
      console.error = origError;
      await t.database.db.execute(sql.raw(`DROP TRIGGER fail_mail_once ON mail_outbox`));
    }
  }, 60_000);
});
