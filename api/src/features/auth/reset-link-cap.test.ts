/**
 * The live-link caps under parallel requests (audit finding: 15 parallel reset requests stored 15 links and sent
 * 15 mails although MAX_LIVE_LINKS is 3). Each request counts and inserts while holding its account's row lock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { startTestApp, signUpStudent, DB_KIND, type TestApp } from '../../test/harness.ts';
import { emailVerifications, passwordResets } from '../../db/schema/users.ts';
import { findUserById } from '../../auth/users-repo.ts';
import { mailsTo } from '../../test/mail.ts';
import { sendEmailVerification } from './email-verification.service.ts';
import { afterAnswerSettled } from './after-answer.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

describe(`live-link caps under parallel requests (${DB_KIND})`, () => {
  it('POST /api/auth/reset-password › 15 requests at once for one account store 3 links and send 3 mails', async () => {
    const s = await signUpStudent(t);
    const answers = await Promise.all(Array.from({ length: 15 }, () => t.request().post('/api/auth/reset-password').send({ email: s.email })));
    expect(answers.map((r) => r.status)).toEqual(Array(15).fill(200));
    await afterAnswerSettled(); // the links are made after the answers (after-answer.ts)
    const links = await t.database.db.select().from(passwordResets).where(eq(passwordResets.userId, s.user.id));
    expect(links).toHaveLength(3);
    expect(await mailsTo(t, s.email, 'Reset your password')).toHaveLength(3);
  });

  it('sendEmailVerification › 15 resends at once for one account keep it at 3 live links and 3 mails', async () => {
    const s = await signUpStudent(t); // registration sent the first link
    const user = (await findUserById(t.database.db, s.user.id))!;
    const sent = await Promise.all(Array.from({ length: 15 }, () => sendEmailVerification(t.database.db, t.config, user)));
    expect(sent.filter(Boolean)).toHaveLength(2);
    const live = await t.database.db.select().from(emailVerifications).where(and(eq(emailVerifications.userId, s.user.id), isNull(emailVerifications.usedAt)));
    expect(live).toHaveLength(3);
    expect(await mailsTo(t, s.email, 'Please confirm your e-mail address')).toHaveLength(3);
  });
});
