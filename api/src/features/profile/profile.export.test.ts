import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { startTestApp, signUpStudent, signInAdmin, insertUpload, validApplication, DB_KIND, type TestApp } from '../../test/harness.ts';
import { users } from '../../db/schema/users.ts';
import { documentReviews } from '../../db/schema/applications.ts';
import { smsOutbox, smsOptOuts, mailOutbox } from '../../db/schema/messaging.ts';
import { externalStudents, externalPayments } from '../../db/schema/system.ts';
import { todayInSouthAfrica } from '#contracts/assessment.ts';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

function weekdayAhead(): string {
  const d = new Date(`${todayInSouthAfrica()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 3);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
const booking = (email: string, specialNeeds = '') => ({
  firstName: 'Mpho', lastName: 'Mudau', email, phone: '0821234567', dateOfBirth: '2004-05-06', idNumber: '0405065123086',
  preferredCampus: 'biaba', courseInterest: 'information-technology', assessmentType: 'combined', preferredDate: weekdayAhead(),
  preferredTime: 'morning', educationLevel: 'grade-12', specialNeeds, additionalNotes: '',
});
const contact = (email: string, message: string) => ({ firstName: 'Mpho', lastName: 'Mudau', email, phone: '', message });
/** The same mailbox as `email` with a '+tag' (name+booking@example.com), and an address that only starts alike. */
const tagged = (email: string, tag: string) => email.replace('@', `+${tag}@`);
const lookalike = (email: string) => email.replace('@', 'x@');

async function verified(): Promise<Awaited<ReturnType<typeof signUpStudent>>> {
  const s = await signUpStudent(t);
  await t.database.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, s.user.id));
  return s;
}

async function submitForms(email: string): Promise<void> {
  const post = async (path: string, body: object) => expect((await t.request().post(path).send(body)).status, `${path} ${JSON.stringify(body).slice(0, 80)}`).toBe(201);
  await post('/api/contact', contact(email, 'Message one from my own address.'));
  await post('/api/contact', contact(tagged(email, 'contact'), 'Message two from my tagged address.'));
  await post('/api/assessment-centre', booking(email));
  await post('/api/assessment-centre', booking(tagged(email, 'booking'), 'I use a wheelchair'));
  await post('/api/contact', contact(lookalike(email), 'Someone else entirely.'));
}

const rowsWith = async (needle: string) => {
  const q = async (table: string) => ((await t.database.db.execute(sql`SELECT * FROM ${sql.raw(table)}`)) as any).rows
    .filter((r: unknown) => JSON.stringify(r).toLowerCase().includes(needle.toLowerCase())).length as number;
  return { contact: await q('contact_messages'), bookings: await q('assessment_bookings'), mail: await q('mail_outbox') };
};

describe(`personal data of one mailbox (${DB_KIND}, privacy audit F3)`, () => {
  it('GET /api/profile/export › lists the contact messages and bookings sent from a +tag copy of the address, not a look-alike', async () => {
    const s = await verified();
    await submitForms(s.email);
    const data = JSON.parse((await s.agent.get('/api/profile/export')).text);
    expect(data.contactMessages.map((m: any) => m.message)).toEqual(['Message one from my own address.', 'Message two from my tagged address.']);
    expect(data.assessmentBookings.map((b: any) => b.email)).toEqual([s.email, tagged(s.email, 'booking')]);
    expect(data.assessmentBookings[1].data.specialNeeds).toBe('I use a wheelchair');
    // The acknowledgements went to both addresses; both are the person's mail.
    expect(data.emails.map((m: any) => m.to)).toEqual(expect.arrayContaining([s.email, tagged(s.email, 'contact'), tagged(s.email, 'booking')]));
    expect(JSON.stringify(data)).not.toContain(lookalike(s.email));
  });

  it('GET /api/profile/export › 10 downloads per account in 10 minutes, then 429 with what to do; another account is not held back', async () => {
    const s = await signUpStudent(t);
    for (let i = 0; i < 10; i++) expect((await s.agent.get('/api/profile/export')).status).toBe(200);
    const eleventh = await s.agent.get('/api/profile/export');
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.error).toMatchObject({ code: 'rate_limited', message: 'You have downloaded your data many times in the last few minutes. Please try again in 10 minutes.' });
    const other = await signUpStudent(t);
    expect((await other.agent.get('/api/profile/export')).status).toBe(200);
  });

  it('an unverified account still sees no form messages filed under its address (issue #12 finding 1)', async () => {
    const s = await signUpStudent(t);
    await submitForms(s.email);
    const data = JSON.parse((await s.agent.get('/api/profile/export')).text);
    expect(data.contactMessages).toEqual([]);
    expect(data.assessmentBookings).toEqual([]);
  });

  it('POST /api/profile/delete › erases the forms of the +tag copies and their office and acknowledgement mail; the look-alike stays', async () => {
    const s = await verified();
    await submitForms(s.email);
    const local = s.email.split('@')[0]!;
    expect(await rowsWith(local)).toMatchObject({ contact: 3, bookings: 2 });
    const res = await s.agent.post('/api/profile/delete').send({ password: s.password });
    expect(res.body.outcome).toBe('deleted');
    expect(await rowsWith(`${local}@`)).toEqual({ contact: 0, bookings: 0, mail: 0 });
    expect(await rowsWith(`${local}+`)).toEqual({ contact: 0, bookings: 0, mail: 0 });
    const other = await rowsWith(lookalike(s.email));
    expect(other.contact).toBe(1);
    expect(other.mail).toBeGreaterThanOrEqual(1);
  });
});

describe(`admin Erase of one mailbox (${DB_KIND}, privacy audit F3)`, () => {
  it('POST /api/admin/erasure-requests/:id erase › the booking filed under name+booking@ goes with the person (it kept name, ID number and special needs)', async () => {
    const s = await verified();
    await submitForms(s.email);
    const idDocument = await insertUpload(t, s.user.id);
    const transcripts = await insertUpload(t, s.user.id);
    expect((await s.agent.post('/api/applications').send(validApplication(1, { idDocument, transcripts }))).status).toBe(201);
    const del = await s.agent.post('/api/profile/delete').send({ password: s.password });
    expect(del.status).toBe(202);
    const admin = await signInAdmin(t);
    expect((await admin.agent.post(`/api/admin/erasure-requests/${del.body.requestId}`).send({ decision: 'erase' })).status).toBe(200);
    const local = s.email.split('@')[0]!;
    expect(await rowsWith(`${local}+`)).toEqual({ contact: 0, bookings: 0, mail: 0 });
    expect((await rowsWith(`${local}@`)).bookings + (await rowsWith(`${local}@`)).contact).toBe(0);
    expect((await rowsWith(lookalike(s.email))).contact).toBe(1);
  });
});

describe(`what the export holds (${DB_KIND}, privacy audit F4)`, () => {
  it('GET /api/profile/export › mail and SMS sent to the person, document reviews, SMS opt-out, student-system records and who receives the data', async () => {
    const s = await verified();
    const db = t.database.db;
    const idDocument = await insertUpload(t, s.user.id);
    const transcripts = await insertUpload(t, s.user.id);
    const applied = await s.agent.post('/api/applications').send(validApplication(1, { idDocument, transcripts }));
    expect(applied.status).toBe(201);
    const appId = applied.body.application.id as number;
    await db.insert(documentReviews).values({ applicationId: appId, slot: 'idDocument', uploadId: idDocument, status: 'rejected', reason: 'The scan is blurry' });
    await db.insert(smsOutbox).values({ to: '+27821234567', body: 'Application received', kind: 'receipt', userId: s.user.id, status: 'sent', sentAt: new Date() });
    await db.update(users).set({ smsOptOutAt: new Date() }).where(eq(users.id, s.user.id));
    await db.insert(smsOptOuts).values({ phone: '+27821234567', source: 'STOP' }).onConflictDoNothing();
    const [student] = await db.insert(externalStudents).values({ userId: s.user.id, applicationId: appId, name: 'Thandi Mokoena', email: s.email, campus: 'Siloam', course: 'IT', enrollmentDate: '2026-02-01' }).returning();
    await db.insert(externalPayments).values({ reference: `EXP-${appId}`, studentId: student!.id, amount: '1500.00', idempotencyKey: `k-${appId}` });

    const data = JSON.parse((await s.agent.get('/api/profile/export')).text);
    expect(data.smsMessages).toEqual(expect.arrayContaining([expect.objectContaining({ to: '+27821234567', body: 'Application received', status: 'sent', sentAt: expect.any(String) })]));
    expect(data.emails.length).toBeGreaterThan(0);
    expect(data.emails[0]).toEqual({ to: s.email, subject: expect.any(String), status: expect.any(String), createdAt: expect.any(String), sentAt: null });
    expect(data.documentReviews).toEqual([expect.objectContaining({ applicationId: appId, slot: 'idDocument', status: 'rejected', reason: 'The scan is blurry' })]);
    expect(data.smsOptOut).toEqual({ optedOutAt: expect.any(String), stoppedByReply: expect.objectContaining({ phone: '+27821234567', source: 'STOP' }) });
    expect(data.externalStudents).toEqual([expect.objectContaining({ applicationId: appId, campus: 'Siloam', enrollmentDate: '2026-02-01' })]);
    expect(data.externalPayments).toEqual([expect.objectContaining({ reference: `EXP-${appId}`, amount: '1500.00' })]);
    expect(JSON.stringify(data.externalPayments)).not.toContain(`k-${appId}`);
    expect(data.recipients.map((r: any) => r.recipient).join(' | ')).toMatch(/e-mail provider.*SMS provider.*student-administration system/i);
    // Mail bodies are not part of it (reset links, codes): only the subjects.
    const bodies = (await db.select({ text: mailOutbox.text }).from(mailOutbox).where(eq(mailOutbox.to, s.email))).map((m) => m.text);
    for (const b of bodies) expect(JSON.stringify(data)).not.toContain(JSON.stringify(b).slice(1, 60));
    await db.delete(smsOptOuts).where(eq(smsOptOuts.phone, '+27821234567'));
  });
});

/**
 * Two verified accounts whose addresses reach one mailbox: A parentX@example.com and B parentX+b@example.com (a parent
 * applying for two children with +tags, or a domain where '+' is no sub-addressing). B's address is B's own login, so
 * what was filed under it, or mailed to it, is B's and never A's; and A's own address is never B's.
 */
async function twoAccountsOneMailbox(): Promise<{ a: Awaited<ReturnType<typeof verified>>; b: Awaited<ReturnType<typeof verified>> }> {
  const local = `parent${process.pid}x${Date.now()}`;
  const a = await verifiedAs(`${local}@example.com`);
  const b = await verifiedAs(`${local}+b@example.com`);
  const post = async (path: string, body: object) => expect((await t.request().post(path).send(body)).status, path).toBe(201);
  await post('/api/contact', contact(a.email, 'A writes from their own address.'));
  await post('/api/contact', contact(tagged(a.email, 'contact'), 'A writes from a tag no account uses.'));
  // B's own address, typed in another case: still B's.
  await post('/api/assessment-centre', booking(b.email.toUpperCase(), 'B needs a reader'));
  return { a, b };
}
async function verifiedAs(email: string): Promise<Awaited<ReturnType<typeof verified>>> {
  const s = await signUpStudent(t, { email });
  await t.database.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, s.user.id));
  return s;
}
/** The mail_outbox rows to `email` (any case): their subjects and status. */
const mailTo = async (email: string) => (await t.database.db.select({ subject: mailOutbox.subject, status: mailOutbox.status }).from(mailOutbox)
  .where(sql`lower(${mailOutbox.to}) = ${email.toLowerCase()}`).orderBy(mailOutbox.id));
const bookingsOf = async (email: string) => ((await t.database.db.execute(sql`SELECT id FROM assessment_bookings WHERE lower(email) = ${email.toLowerCase()}`)) as any).rows.length as number;

describe(`another account's address in the same mailbox (${DB_KIND}, privacy: export and erasure by mailbox)`, () => {
  it('GET /api/profile/export › A\'s export holds neither B\'s booking nor B\'s mail, and B\'s export holds none of A\'s', async () => {
    const { a, b } = await twoAccountsOneMailbox();
    const dataA = JSON.parse((await a.agent.get('/api/profile/export')).text);
    expect(dataA.assessmentBookings).toEqual([]);
    expect(dataA.contactMessages.map((m: any) => m.message)).toEqual(['A writes from their own address.', 'A writes from a tag no account uses.']);
    expect(dataA.emails.map((m: any) => m.to.toLowerCase())).not.toContain(b.email);
    expect(JSON.stringify(dataA)).not.toContain('B needs a reader');

    const dataB = JSON.parse((await b.agent.get('/api/profile/export')).text);
    expect(dataB.assessmentBookings.map((x: any) => x.data.specialNeeds)).toEqual(['B needs a reader']);
    // A's own address is A's; a tag no account uses is the untagged owner's (A), never another tag's (audit F1).
    expect(dataB.contactMessages).toEqual([]);
    expect(dataB.emails.map((m: any) => m.to.toLowerCase())).not.toContain(a.email);
  });

  it('POST /api/profile/delete › A\'s Delete my account leaves B\'s booking and B\'s pending mail', async () => {
    const { a, b } = await twoAccountsOneMailbox();
    const before = await mailTo(b.email);
    expect(before.length).toBeGreaterThanOrEqual(2); // the verification mail and the booking's acknowledgement
    expect(before.every((m) => m.status === 'pending')).toBe(true);
    const res = await a.agent.post('/api/profile/delete').send({ password: a.password });
    expect(res.body.outcome).toBe('deleted');
    expect(await bookingsOf(b.email)).toBe(1);
    expect(await mailTo(b.email)).toEqual(before);
    // A's own forms and the tag no account uses went with A.
    expect(await rowsWith(tagged(a.email, 'contact'))).toEqual({ contact: 0, bookings: 0, mail: 0 });
    const dataB = JSON.parse((await b.agent.get('/api/profile/export')).text);
    expect(dataB.assessmentBookings.map((x: any) => x.data.specialNeeds)).toEqual(['B needs a reader']);
  });

  it('POST /api/admin/erasure-requests/:id erase › erasing A leaves B\'s booking and B\'s pending mail', async () => {
    const { a, b } = await twoAccountsOneMailbox();
    const idDocument = await insertUpload(t, a.user.id);
    const transcripts = await insertUpload(t, a.user.id);
    expect((await a.agent.post('/api/applications').send(validApplication(1, { idDocument, transcripts }))).status).toBe(201);
    const del = await a.agent.post('/api/profile/delete').send({ password: a.password });
    expect(del.status).toBe(202);
    const before = await mailTo(b.email);
    expect(before.length).toBeGreaterThanOrEqual(2);
    const admin = await signInAdmin(t);
    expect((await admin.agent.post(`/api/admin/erasure-requests/${del.body.requestId}`).send({ decision: 'erase' })).status).toBe(200);
    expect(await bookingsOf(b.email)).toBe(1);
    expect(await mailTo(b.email)).toEqual(before);
    expect(await rowsWith(tagged(a.email, 'contact'))).toEqual({ contact: 0, bookings: 0, mail: 0 });
  });

  it('POST /api/profile/delete › B\'s Delete my account leaves A\'s forms and mail at A\'s own address', async () => {
    const { a, b } = await twoAccountsOneMailbox();
    const before = await mailTo(a.email);
    expect((await b.agent.post('/api/profile/delete').send({ password: b.password })).body.outcome).toBe('deleted');
    expect(await bookingsOf(b.email)).toBe(0);
    expect(await mailTo(a.email)).toEqual(before);
    const dataA = JSON.parse((await a.agent.get('/api/profile/export')).text);
    expect(dataA.contactMessages.map((m: any) => m.message)).toContain('A writes from their own address.');
  });
});

describe(`a verified +tag address is not the untagged address's owner (${DB_KIND}, security audit 2026-11-28 F1)`, () => {
  /** Someone without an account writes as `base`; an attacker who owns `base`'s +x copy (a domain without sub-addressing) registers and verifies it. */
  async function tagOfAStranger() {
    const base = `vic${process.pid}x${Date.now()}@corp.example.com`;
    const message = `My ID number is 0101015009087 (${base})`;
    expect((await t.request().post('/api/contact').send(contact(base, message))).status).toBe(201);
    expect((await t.request().post('/api/assessment-centre').send(booking(base, 'Vic needs a reader'))).status).toBe(201);
    const x = await verifiedAs(tagged(base, 'x'));
    return { base, message, x };
  }

  it('GET /api/profile/export › holds neither the stranger\'s message, booking nor the mail to them; only what was sent as the tagged address itself', async () => {
    const { base, message, x } = await tagOfAStranger();
    expect((await t.request().post('/api/contact').send(contact(x.email, 'Sent as vic+x myself.'))).status).toBe(201);
    const data = JSON.parse((await x.agent.get('/api/profile/export')).text);
    expect(data.contactMessages.map((m: any) => m.message)).toEqual(['Sent as vic+x myself.']);
    expect(data.assessmentBookings).toEqual([]);
    expect(data.emails.map((m: any) => m.to.toLowerCase())).not.toContain(base);
    expect(JSON.stringify(data)).not.toContain(message);
  });

  it('POST /api/profile/delete › the stranger\'s message, booking and mail stay', async () => {
    const { base, message, x } = await tagOfAStranger();
    const mail = await mailTo(base);
    expect(mail.length).toBeGreaterThanOrEqual(2);
    expect((await x.agent.post('/api/profile/delete').send({ password: x.password })).body.outcome).toBe('deleted');
    expect((await rowsWith(message)).contact).toBe(1);
    expect(await bookingsOf(base)).toBe(1);
    expect(await mailTo(base)).toEqual(mail);
  });
});

describe(`an unverified account at a +tag copy of another's address (${DB_KIND}, security review MEDIUM)`, () => {
  /** Verified A sent a contact message, with an ID number, as A+c@; then someone registers A+c@ and never verifies it. */
  async function hiddenByUnverified() {
    const a = await verified();
    const message = `Please check my ID number 0104125800086 (${a.email})`;
    expect((await t.request().post('/api/contact').send(contact(tagged(a.email, 'c'), message))).status).toBe(201);
    const squatter = await signUpStudent(t, { email: tagged(a.email, 'c') });
    return { a, message, squatter };
  }
  const inAdminList = async (message: string) => {
    const admin = await signInAdmin(t);
    return ((await admin.agent.get('/api/admin/contact-messages?pageSize=100')).body.messages as any[]).filter((m) => m.message === message).length;
  };

  it('GET /api/profile/export › A\'s export still lists the message; the unverified account\'s lists none', async () => {
    const { a, message, squatter } = await hiddenByUnverified();
    const dataA = JSON.parse((await a.agent.get('/api/profile/export')).text);
    expect(dataA.contactMessages.map((m: any) => m.message)).toEqual([message]);
    const dataS = JSON.parse((await squatter.agent.get('/api/profile/export')).text);
    expect(dataS.contactMessages).toEqual([]);
  });

  it('POST /api/profile/delete › A\'s Delete my account removes the message from the admin list', async () => {
    const { a, message } = await hiddenByUnverified();
    expect(await inAdminList(message)).toBe(1);
    expect((await a.agent.post('/api/profile/delete').send({ password: a.password })).body.outcome).toBe('deleted');
    expect(await inAdminList(message)).toBe(0);
    expect(await rowsWith(message)).toEqual({ contact: 0, bookings: 0, mail: 0 });
  });

  it('once that account verifies the address, the address and its messages are its own again (1843fbf)', async () => {
    const { a, squatter } = await hiddenByUnverified();
    await t.database.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, squatter.user.id));
    const dataA = JSON.parse((await a.agent.get('/api/profile/export')).text);
    expect(dataA.contactMessages).toEqual([]);
    const dataS = JSON.parse((await squatter.agent.get('/api/profile/export')).text);
    expect(dataS.contactMessages).toHaveLength(1);
  });
});
