/**
 * Security audit F3 (ASVS 5.0 V6, account enumeration: same answer, same timing): POST /reset-password answers before
 * it looks the address up, so an address with an account is answered like one without, and the reset link is made
 * and queued afterwards (after-answer.ts). Asserted through what a caller notices, never through elapsed time:
 * identical answers, the mail still reaching the outbox, an answer that does not wait for the account's row, and a
 * failure while making the link that changes no answer and leaves one log line without the link or the address.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { startTestApp, signUpStudent, uniqueEmail, DB_KIND, type TestApp } from '../../test/harness.ts';
import { mailOutbox } from '../../db/schema/messaging.ts';
import { passwordResets } from '../../db/schema/users.ts';
import { lockUserRow } from '../../auth/users-repo.ts';
import { afterAnswerSettled } from './after-answer.ts';
import { RESET_SENT_MESSAGE } from './auth.routes.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });
afterEach(() => { vi.restoreAllMocks(); });

const SUBJECT = 'Reset your password';
/** mail_outbox rows of reset mail to `email`, read from the table (the worker is not running in API tests). */
const outboxRows = (email: string) => t.database.db.select({ id: mailOutbox.id, text: mailOutbox.text }).from(mailOutbox)
  .where(and(eq(mailOutbox.to, email.toLowerCase()), eq(mailOutbox.subject, SUBJECT)));
/** Waits (polling, at most 10 s) until `email` has a queued reset mail; resolves to its rows. */
async function resetMailQueued(email: string) {
  return vi.waitFor(async () => {
    const rows = await outboxRows(email);
    if (rows.length === 0) throw new Error(`no reset mail queued for ${email} yet`);
    return rows;
  }, { timeout: 10_000, interval: 25 });
}
const ask = (email: string) => t.request().post('/api/auth/reset-password').send({ email });
/** What a caller can compare: status, body, and the headers that do not vary per request. */
const seen = (res: { status: number; text: string; headers: Record<string, any> }) =>
  ({ status: res.status, body: res.text, type: res.headers['content-type'], length: res.headers['content-length'], cache: res.headers['cache-control'] });

describe(`password-reset requests reveal no account (${DB_KIND})`, () => {
  it('POST /api/auth/reset-password › one answer for an address with an account and one without; the link still reaches the outbox', async () => {
    const s = await signUpStudent(t);
    const ghost = uniqueEmail('ghost');
    const known = await ask(s.email);
    const unknown = await ask(ghost);
    expect(known.body).toEqual({ ok: true, message: RESET_SENT_MESSAGE });
    expect(seen(known)).toEqual(seen(unknown));
    const rows = await resetMailQueued(s.email);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.text).toContain('/reset-password#token=');
    await afterAnswerSettled();
    expect(await outboxRows(ghost)).toEqual([]);
  });

  it('a failure while making the link changes no answer; it is logged once, without the link, its token or the address, and never thrown', async () => {
    const s = await signUpStudent(t);
    const ghost = uniqueEmail('ghost');
    const lines: string[] = [];
    for (const m of ['log', 'info', 'warn', 'error'] as const) vi.spyOn(console, m).mockImplementation((...a: unknown[]) => { lines.push(a.map(String).join(' ')); });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => { unhandled.push(reason); };
    process.on('unhandledRejection', onUnhandled);
    // Any reset mail now fails to insert (a check violation): the outbox write, after the token was made.
    await t.database.db.execute(sql.raw(`ALTER TABLE mail_outbox ADD CONSTRAINT f3_no_reset_mail CHECK (subject <> '${SUBJECT}') NOT VALID`));
    try {
      const known = await ask(s.email);
      const unknown = await ask(ghost);
      expect(seen(known)).toEqual(seen(unknown));
      expect(known.status).toBe(200);
      const failure = await vi.waitFor(() => {
        const line = lines.find((l) => l.includes('password reset request') && l.includes('failed after the answer'));
        if (!line) throw new Error('the failure is not logged yet');
        return line;
      }, { timeout: 10_000, interval: 25 });
      await afterAnswerSettled();
      expect(failure).toContain(`s***@example.com`);
      expect(lines.filter((l) => l.includes('failed after the answer'))).toHaveLength(1);
      for (const line of lines) {
        expect(line).not.toContain('#token=');
        expect(line).not.toContain('Someone asked to reset');
        expect(line.toLowerCase()).not.toContain(s.email.toLowerCase());
      }
      // The link and its mail are one transaction: no live link without its mail.
      expect(await t.database.db.select().from(passwordResets).where(eq(passwordResets.userId, s.user.id))).toEqual([]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await t.database.db.execute(sql.raw('ALTER TABLE mail_outbox DROP CONSTRAINT IF EXISTS f3_no_reset_mail'));
    }
    // Asking again once the outbox accepts mail works.
    expect((await ask(s.email)).status).toBe(200);
    expect(await resetMailQueued(s.email)).toHaveLength(1);
  });

  // PostgreSQL only: PGlite has one connection, so a transaction held open by the test would hold up the request's
  // rate-limit queries too.
  it.skipIf(DB_KIND === 'pglite')('the answer does not wait for the account: it arrives while another transaction holds the account row, and the link follows', async () => {
    const s = await signUpStudent(t);
    let status: number | undefined;
    let answer: Promise<unknown> = Promise.resolve();
    let whileLocked: number | undefined;
    await t.database.db.transaction(async (tx) => {
      await lockUserRow(tx, s.user.id);
      answer = ask(s.email).then((r) => { status = r.status; });
      // Bounded wait for the answer; the lock is then let go either way (the old route waited here for the lock).
      await vi.waitFor(() => { if (status === undefined) throw new Error('no answer yet'); }, { timeout: 5_000, interval: 20 }).catch(() => {});
      whileLocked = status;
      expect(await outboxRows(s.email)).toEqual([]); // nothing could be written past the lock
    });
    await answer;
    expect(whileLocked, 'answered while the account row was locked').toBe(200);
    expect(await resetMailQueued(s.email)).toHaveLength(1);
  });
});
