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
  it('E › registrations refused for bad input do not count toward the proof-of-work threshold', async () => {
    const lab = freshIp();
    for (let i = 0; i < SOFT + 2; i++) expect((await post(lab, '/api/auth/register', validRegistration({ confirmPassword: 'does-not-match-1' }))).status).toBe(400);
    for (let i = 0; i < SOFT; i++) expect((await post(lab, '/api/auth/register', validRegistration())).status, `registration ${i + 1}`).toBe(201);
    const over = await post(lab, '/api/auth/register', validRegistration());
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('challenge_required');
  }, 60_000);

});
