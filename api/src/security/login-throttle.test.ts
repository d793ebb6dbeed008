/**
 * Login on shared addresses (reliability audit L finding B; ASVS 5.0 V2.2.1, V6.3.1): failed logins from one
 * carrier-NAT address, or guesses at one account from many addresses, must not lock honest people out. Past the soft
 * limits the API asks for the altcha proof-of-work (429 challenge_required) and a solved one lets the right password
 * in; only a flood far above any shared network is refused with the spec's message. The PBKDF2 cost is lowered for
 * the test's speed only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { startTestApp, DB_KIND, signUpStudent, uniqueEmail, type TestApp } from '../test/harness.ts';
import { mailsTo } from '../test/mail.ts';
import { loginLimits } from '../features/auth/login-throttle.ts';

const LOGIN_RATE_LIMIT = 4;
const limits = loginLimits(LOGIN_RATE_LIMIT);
let t: TestApp;
beforeAll(async () => { t = await startTestApp({ TRUST_PROXY: '1', LOGIN_RATE_LIMIT: String(LOGIN_RATE_LIMIT), REGISTER_POW_COST: '1' }); });
afterAll(async () => { await t?.close(); });

let ipCounter = 0;
const freshIp = () => `203.0.113.${++ipCounter}`;
const login = (ip: string, body: Record<string, unknown>) => t.request().post('/api/auth/login').set('X-Forwarded-For', ip).send(body);

/** What the login form does on 429 challenge_required: solve the challenge and send the login again with `altcha`. */
async function solved(challenge: any): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution })).toString('base64');
}

describe(`login on shared addresses (${DB_KIND})`, () => {
  it('past the per-IP soft limit of failures, a right password from that address is asked for the proof, not locked out; solved → 200', async () => {
    const { email, password } = await signUpStudent(t);
    const nat = freshIp();
    for (let i = 0; i < limits.ipSoft; i++) expect((await login(nat, { email: uniqueEmail('nobody'), password: 'wrong-password-1' })).status).toBe(401);
    const asked = await login(nat, { email, password });
    expect(asked.status).toBe(429);
    expect(asked.body.error.code).toBe('challenge_required');
    expect(asked.body.challenge.parameters.algorithm).toBe('PBKDF2/SHA-256');
    const altcha = await solved(asked.body.challenge);
    const ok = await login(nat, { email, password, altcha });
    expect(ok.status).toBe(200);
    expect(ok.body.user.email).toBe(email);
    // A spent solution does not work twice; a wrong password with a proof is still the spec's 401.
    expect((await login(nat, { email, password, altcha })).body.error.code).toBe('challenge_required');
    const next = await login(nat, { email, password: 'wrong-password-1' });
    const wrong = await login(nat, { email, password: 'wrong-password-1', altcha: await solved(next.body.challenge) });
    expect([wrong.status, wrong.body.error.message]).toEqual([401, 'Invalid email or password']);
  }, 120_000);

  it('after many failures on one account from as many addresses (one below the hard ceiling), its owner logs in with a proof from a fresh address', async () => {
    const { email, password } = await signUpStudent(t);
    const statuses = new Set<number>();
    for (let i = 0; i < limits.accountHard - 1; i++) {
      const ip = freshIp();
      let res = await login(ip, { email, password: `guess-${i}-pw` });
      if (res.status === 429 && res.body.error.code === 'challenge_required') res = await login(ip, { email, password: `guess-${i}-pw`, altcha: await solved(res.body.challenge) });
      statuses.add(res.status);
    }
    expect([...statuses]).toEqual([401]);
    const owner = freshIp();
    const asked = await login(owner, { email, password });
    expect(asked.status).toBe(429);
    expect(asked.body.error.code).toBe('challenge_required');
    expect((await login(owner, { email, password, altcha: await solved(asked.body.challenge) })).status).toBe(200);
    // Another account from the same addresses is not affected.
    const other = await signUpStudent(t);
    expect((await login(owner, { email: other.email, password: other.password })).status).toBe(200);
  }, 120_000);

  it('failures on one account from one address ask that pair for the proof; the same account elsewhere and others there are untouched', async () => {
    const { email, password } = await signUpStudent(t);
    const ip = freshIp();
    for (let i = 0; i < limits.accountIpSoft; i++) expect((await login(ip, { email: email.toUpperCase(), password: `wrong-${i}-pw` })).status).toBe(401);
    expect((await login(ip, { email, password })).body.error?.code).toBe('challenge_required');
    expect((await login(freshIp(), { email, password })).status).toBe(200);
    const other = await signUpStudent(t);
    expect((await login(ip, { email: other.email, password: other.password })).status).toBe(200);
  }, 60_000);

  it('guesses at one account, each with a freshly solved proof: the check gets dearer, a cheap old proof no longer counts, and past the hard ceiling the account is refused until a password reset', async () => {
    const { email, password } = await signUpStudent(t);
    const statuses: number[] = [];
    const costs: number[] = [];
    let cheapProof: string | undefined;
    let refused: any;
    for (let i = 0; i < limits.accountHard + 10 && !refused; i++) {
      const ip = freshIp();
      let res = await login(ip, { email, password: `guess-${i}-pw` });
      if (res.status === 429 && res.body.error.code === 'challenge_required') {
        costs.push(res.body.challenge.parameters.cost);
        // One solved proof from the first cheap challenge is kept for later instead of being spent now.
        if (!cheapProof) { cheapProof = await solved(res.body.challenge); res = await login(ip, { email, password: `guess-${i}-pw` }); costs.push(res.body.challenge.parameters.cost); }
        res = await login(ip, { email, password: `guess-${i}-pw`, altcha: await solved(res.body.challenge) });
      }
      statuses.push(res.status);
      if (res.status === 429) refused = res.body.error;
    }
    expect(statuses.slice(0, limits.accountHard)).toEqual(Array(limits.accountHard).fill(401));
    expect(refused).toMatchObject({ code: 'rate_limited', message: 'Too many login attempts. Please try again later.' });
    expect(Math.max(...costs)).toBeGreaterThan(costs[0]!);
    // The owner too is refused now, even with the right password and a proof …
    const owner = freshIp();
    expect((await login(owner, { email, password, altcha: cheapProof })).body.error).toMatchObject({ code: 'rate_limited' });
    // … until a password reset, which clears the account's counters.
    expect((await t.request().post('/api/auth/reset-password').set('X-Forwarded-For', owner).send({ email })).status).toBe(200);
    const token = (await mailsTo(t, email)).map((m) => m.text.match(/reset-password#token=([A-Za-z0-9_-]+)/)?.[1]).filter(Boolean).pop();
    const newPassword = 'Owner-new-pass-2027';
    expect((await t.request().post('/api/auth/reset-password/confirm').set('X-Forwarded-For', owner).send({ token, password: newPassword, confirmPassword: newPassword })).status).toBe(200);
    expect((await login(owner, { email, password: newPassword })).status).toBe(200);
  }, 180_000);

  it('a cheap proof solved before the account got dearer is not accepted once the check costs more', async () => {
    const { email, password } = await signUpStudent(t);
    const ip = freshIp();
    for (let i = 0; i < limits.accountSoft; i++) await login(freshIp(), { email, password: `guess-${i}-pw` });
    const first = await login(ip, { email, password });
    const cheap = await solved(first.body.challenge);
    for (let i = 0; i < limits.accountSoft; i++) {
      const ipN = freshIp();
      const asked = await login(ipN, { email, password: `more-${i}-pw` });
      expect((await login(ipN, { email, password: `more-${i}-pw`, altcha: await solved(asked.body.challenge) })).status).toBe(401);
    }
    const withCheap = await login(ip, { email, password, altcha: cheap });
    expect(withCheap.body.error?.code).toBe('challenge_required');
    expect(withCheap.body.challenge.parameters.cost).toBeGreaterThan(first.body.challenge.parameters.cost);
    expect((await login(ip, { email, password, altcha: await solved(withCheap.body.challenge) })).status).toBe(200);
  }, 120_000);

  it('guesses at one account from one address, each with a proof, are refused past the account+IP ceiling; other accounts there and the account elsewhere still get in', async () => {
    const { email, password } = await signUpStudent(t);
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < limits.accountIpHard + 1; i++) {
      let res = await login(ip, { email, password: `guess-${i}-pw` });
      if (res.body.error?.code === 'challenge_required') res = await login(ip, { email, password: `guess-${i}-pw`, altcha: await solved(res.body.challenge) });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(limits.accountIpHard).fill(401), 429]);
    expect((await login(ip, { email, password })).body.error).toMatchObject({ code: 'rate_limited', message: 'Too many login attempts. Please try again later.' });
    // A lab on that address: several other learners, right passwords, all get in (with a proof where asked).
    for (let n = 0; n < 3; n++) {
      const other = await signUpStudent(t);
      let res = await login(ip, { email: other.email, password: other.password });
      if (res.body.error?.code === 'challenge_required') res = await login(ip, { email: other.email, password: other.password, altcha: await solved(res.body.challenge) });
      expect(res.status).toBe(200);
    }
    const elsewhere = freshIp();
    let res = await login(elsewhere, { email, password });
    if (res.body.error?.code === 'challenge_required') res = await login(elsewhere, { email, password, altcha: await solved(res.body.challenge) });
    expect(res.status).toBe(200);
  }, 120_000);

  it('a flood far above any shared network (LoginLimits.ipHard failures) is refused with the spec message, even with a proof', async () => {
    const { email, password } = await signUpStudent(t);
    const flood = freshIp();
    await t.database.db.execute(sql`INSERT INTO rate_limits (key, hits, reset_at) VALUES (${`login-fail:ip:${flood}`}, ${limits.ipHard}, now() + interval '15 minutes')`);
    const refused = await login(flood, { email, password });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'rate_limited', message: 'Too many login attempts. Please try again later.' });
    expect((await login(freshIp(), { email, password })).status).toBe(200);
  }, 60_000);
});
