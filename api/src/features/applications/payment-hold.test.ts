/**
 * Admin day audit: "Payment Pending" took a paid fee out of "Fees collected" for good (finding 1), and a note saved
 * without a status change showed the applicant a "Pending → Pending" step (finding 3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { startTestApp, signUpStudent, signInAdmin, insertUpload, validApplication, type TestApp } from '../../test/harness.ts';
import { applications, payments } from '../../db/schema/applications.ts';
import { insertPayment } from './applications.repo.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInAdmin>>;

beforeAll(async () => { t = await startTestApp(); admin = await signInAdmin(t); });
afterAll(async () => { await t.close(); });

async function paidApplication() {
  const s = await signUpStudent(t);
  const idDocument = await insertUpload(t, s.user.id, 'id.pdf');
  const transcripts = await insertUpload(t, s.user.id, 'matric.pdf');
  const res = await s.agent.post('/api/applications').send(validApplication(5, { idDocument, transcripts }));
  expect(res.status).toBe(201);
  return { s, id: res.body.application.id as number };
}
const fees = async (): Promise<string> => (await admin.agent.get('/api/admin/stats')).body.feesCollected;
const setStatus = (id: number, status: string, notes?: string) => admin.agent.put(`/api/admin/applications/${id}/status`).send({ status, ...(notes ? { notes } : {}) }).expect(200);
const rowsOf = (id: number) => t.database.db.select({ status: payments.status, heldAt: payments.heldAt }).from(payments).where(eq(payments.applicationId, id)).orderBy(payments.id);
const paymentStatusOf = async (id: number) => (await t.database.db.select({ p: applications.paymentStatus }).from(applications).where(eq(applications.id, id)))[0]!.p;

describe('Payment Pending is reversible', () => {
  it('leaving payment_pending with no new payment gives the held payment back: Fees collected returns to the exact sum', async () => {
    const { id } = await paidApplication();
    const before = await fees();
    await setStatus(id, 'payment_pending');
    expect(await fees()).not.toBe(before);
    expect((await rowsOf(id)).map((r) => [r.status, r.heldAt != null])).toEqual([['pending', true]]);
    await setStatus(id, 'pending');
    expect(await fees()).toBe(before);
    expect((await rowsOf(id)).map((r) => [r.status, r.heldAt])).toEqual([['completed', null]]);
    expect(await paymentStatusOf(id)).toBe('completed');
    const detail = (await admin.agent.get(`/api/admin/applications/${id}`)).body;
    expect(detail.payment.status).toBe('completed');
  });

  it('a payment recorded while held is not doubled: the held row stays pending and loses its hold', async () => {
    const { s, id } = await paidApplication();
    await setStatus(id, 'payment_pending');
    await t.database.db.transaction(async (tx) => {
      await insertPayment(tx, { applicationId: id, userId: s.user.id, method: 'card', last4: '4242', reference: 'PAY-AGAIN', amount: '50.00', currency: 'USD', status: 'completed' });
      await tx.update(applications).set({ paymentStatus: 'completed' }).where(eq(applications.id, id));
    });
    const paidAgain = await fees();
    await setStatus(id, 'under_review');
    expect(await fees()).toBe(paidAgain);
    expect((await rowsOf(id)).map((r) => [r.status, r.heldAt])).toEqual([['pending', null], ['completed', null]]);
  });

  it('a completed row without a hold (recorded by an older node) also stops the restore', async () => {
    const { s, id } = await paidApplication();
    await setStatus(id, 'payment_pending');
    await t.database.db.insert(payments).values({ applicationId: id, userId: s.user.id, method: 'card', last4: null, reference: 'PAY-OLD', amount: '50.00', currency: 'USD', status: 'completed' });
    await setStatus(id, 'accepted');
    const rows = await t.database.db.select({ status: payments.status }).from(payments).where(and(eq(payments.applicationId, id), eq(payments.status, 'completed')));
    expect(rows).toHaveLength(1);
  });

  it('a note on payment_pending keeps the hold; moving on later still restores', async () => {
    const { id } = await paidApplication();
    const before = await fees();
    await setStatus(id, 'payment_pending');
    await setStatus(id, 'payment_pending', 'Called about the fee');
    expect((await rowsOf(id)).map((r) => r.status)).toEqual(['pending']);
    await setStatus(id, 'under_review');
    expect(await fees()).toBe(before);
  });
});

describe('a note without a status change', () => {
  it('is kept for staff but is no step of the applicant\'s timeline', async () => {
    const { s, id } = await paidApplication();
    await setStatus(id, 'pending', 'Phoned the school');
    await setStatus(id, 'pending', 'Second note');
    const mine = (await s.agent.get(`/api/applications/${id}`).expect(200)).body;
    expect(mine.timeline.map((h: any) => `${h.fromStatus}→${h.toStatus}`)).toEqual(['null→pending']);
    const staff = (await admin.agent.get(`/api/admin/applications/${id}`)).body;
    expect(staff.history.map((h: any) => h.notes).filter(Boolean)).toEqual(['Phoned the school', 'Second note']);
  });
});
