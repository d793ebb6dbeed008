/**
 * Migration 0027 (privacy audit F1): SMS rows that were already final when the outbox started dropping bodies still
 * held their text, a walk-in's set-password link among them. The migration replaces those bodies; pending rows keep theirs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray, sql } from 'drizzle-orm';
import { startTestApp, DB_KIND, type TestApp } from '../test/harness.ts';
import { smsOutbox } from './schema/messaging.ts';
import { SMS_SENT_BODY, SMS_UNSENT_BODY } from '../sms/sms-outbox.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

describe(`migration 0027_sms_body_not_kept (${DB_KIND})`, () => {
  it('sent, failed and skipped SMS written before the fix lose their body; a pending one keeps it', async () => {
    const link = 'VSC: choose your password within 7 days: https://college.example/r#token=ecK6utCmkminZ0BiZIUFEw Reply STOP to opt out';
    const rows = await t.database.db.insert(smsOutbox).values((['sent', 'failed', 'skipped', 'pending'] as const).map((status) => ({ to: '+27825550000', body: link, kind: 'set_password', status }))).returning({ id: smsOutbox.id });
    const file = path.join(import.meta.dirname, 'migrations', '0027_sms_body_not_kept.sql');
    for (const statement of fs.readFileSync(file, 'utf8').split('--> statement-breakpoint')) await t.database.db.execute(sql.raw(statement));
    const after = await t.database.db.select({ status: smsOutbox.status, body: smsOutbox.body }).from(smsOutbox).where(inArray(smsOutbox.id, rows.map((r) => r.id))).orderBy(smsOutbox.id);
    expect(after).toEqual([
      { status: 'sent', body: SMS_SENT_BODY }, { status: 'failed', body: SMS_UNSENT_BODY }, { status: 'skipped', body: SMS_UNSENT_BODY }, { status: 'pending', body: link },
    ]);
  });
});
