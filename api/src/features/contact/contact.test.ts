import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import supertest from 'supertest';
import { sql } from 'drizzle-orm';
import { startTestApp, signInAdmin, signUpStudent, DB_KIND, type TestApp } from '../../test/harness.ts';
import { errorHandler } from '../../http/error-handler.ts';
import { contactRouter } from './contact.routes.ts';
import { mailsTo, type DeliveredMail } from '../../test/mail.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

const valid = (o: Record<string, unknown> = {}) => ({
  firstName: 'Lufuno', lastName: 'Ndou', email: 'Lufuno@Example.com', phone: '082 123 4567',
  message: 'When does the next diploma intake start?', ...o,
});
const outboxTo = (to: string): Promise<DeliveredMail[]> => mailsTo(t, to);
const messageCount = async (key: string) =>
  Number((((await t.database.db.execute(sql`SELECT count(*)::int AS n FROM contact_messages WHERE idempotency_key = ${key}`)) as any).rows[0]).n);

describe(`POST /api/contact (${DB_KIND})`, () => {
  it('stores the message, e-mails the office and acknowledges the visitor; admins read it newest first', async () => {
    const first = await t.request().post('/api/contact').send(valid({ message: 'First message to the office.' }));
    expect(first.status).toBe(201);
    const res = await t.request().post('/api/contact').send(valid({ email: 'second@example.com', message: 'Second message, please call me back.' }));
    expect(res.status).toBe(201);
    expect(res.body.message.id).toBeGreaterThan(first.body.message.id);

    const office = await outboxTo(t.config.OFFICE_EMAIL);
    expect(office.some((m) => m.text.includes('Second message, please call me back.') && m.text.includes('second@example.com'))).toBe(true);
    const ack = await outboxTo('lufuno@example.com');
    expect(ack).toHaveLength(1);
    expect(ack[0].subject).toBe('We received your message');

    const admin = await signInAdmin(t);
    const list = await admin.agent.get('/api/admin/contact-messages');
    expect(list.status).toBe(200);
    expect(list.body.messages.slice(0, 2).map((m: any) => m.message)).toEqual(['Second message, please call me back.', 'First message to the office.']);
    expect(list.body.messages[1]).toMatchObject({ firstName: 'Lufuno', email: 'lufuno@example.com', phone: '082 123 4567' });
  });

  it('answers 400 with a message on each bad field and stores nothing', async () => {
    const res = await t.request().post('/api/contact').send({ firstName: 'L', lastName: '', email: 'nope', phone: '123', message: 'short' });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({
      firstName: 'First name must be at least 2 characters',
      lastName: 'Last name must be at least 2 characters',
      email: 'Please enter a valid email address',
      phone: 'Phone number must be at least 10 digits',
      message: 'Message must be at least 10 characters',
    });
    const malformed = await t.request().post('/api/contact').set('Content-Type', 'application/json').send('{"firstName":');
    expect(malformed.status).toBe(400);
  });

  it('stores a double-clicked message once (same idempotency key, concurrent requests)', async () => {
    const key = `contact-${Date.now()}`;
    const body = valid({ email: `double.${Date.now()}@example.com`, idempotencyKey: key });
    const [a, b] = await Promise.all([t.request().post('/api/contact').send(body), t.request().post('/api/contact').send(body)]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.message.id).toBe(b.body.message.id);
    expect(await messageCount(key)).toBe(1);
    expect(await outboxTo(body.email)).toHaveLength(1);
    const viaHeader = await t.request().post('/api/contact').set('Idempotency-Key', key).send(valid({ email: body.email }));
    expect(viaHeader.status).toBe(200);
    expect(await messageCount(key)).toBe(1);
  });

  it('GET /api/admin/contact-messages › 401 for visitors, 403 for students', async () => {
    expect((await t.request().get('/api/admin/contact-messages')).status).toBe(401);
    const s = await signUpStudent(t);
    expect((await s.agent.get('/api/admin/contact-messages')).status).toBe(403);
  });

  it('rate-limits stored messages per address (429), not rejected ones', async () => {
    // The count is shared (rate_limits table) with this file's /api/contact posts from the same address: start from zero.
    await t.database.db.execute(sql`DELETE FROM rate_limits WHERE key LIKE 'contact:%'`);
    const app = express().use(express.json()).use('/c', contactRouter(t.deps, { limit: 2 })).use(errorHandler);
    const req = supertest(app);
    expect((await req.post('/c').send({})).status).toBe(400);
    expect((await req.post('/c').send(valid())).status).toBe(201);
    expect((await req.post('/c').send(valid())).status).toBe(201);
    const limited = await req.post('/c').send(valid());
    expect(limited.status).toBe(429);
    expect(limited.body.error.message).toMatch(/Too many messages/);
  });
});
