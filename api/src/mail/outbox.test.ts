import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, DB_KIND, type TestApp } from '../test/harness.ts';
import { mailOutbox } from '../db/schema/messaging.ts';
import { enqueueMail, drainOutbox, SENT_BODY } from './outbox.ts';
import type { Mailer } from './mailer.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

describe(`mail outbox (${DB_KIND})`, () => {
  it('sends each queued mail once, then keeps only recipient and subject, not the body', async () => {
    await enqueueMail(t.database.db, { to: 'reset.me@example.com', subject: 'Reset your password', text: 'https://college.example/reset-password#secret-token' });
    expect(await drainOutbox(t.database.db, t.mailer)).toBe(1);
    expect(await drainOutbox(t.database.db, t.mailer)).toBe(0);
    expect(t.mailer.sent.filter((m) => m.to === 'reset.me@example.com')).toHaveLength(1);
    expect(t.mailer.sent.find((m) => m.to === 'reset.me@example.com')!.text).toContain('secret-token');
    const [row] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'reset.me@example.com'));
    expect(row).toMatchObject({ status: 'sent', subject: 'Reset your password', text: SENT_BODY });
  });

  it('a failed send stays queued with its body for a retry', async () => {
    const failing: Mailer = { send: async () => { throw new Error('SMTP down'); } };
    await enqueueMail(t.database.db, { to: 'retry@example.com', subject: 'Hello', text: 'body kept' });
    expect(await drainOutbox(t.database.db, failing)).toBe(0);
    const [row] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'retry@example.com'));
    expect(row).toMatchObject({ status: 'pending', text: 'body kept', lastError: 'SMTP down' });
  });
});
