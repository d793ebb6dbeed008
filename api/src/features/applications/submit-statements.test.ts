/**
 * Performance regression (bench/api.ts: submits on PostgreSQL 258/s → 65/s): what one POST /api/applications asks
 * the database. Counted through drizzle's logger, so every statement of the app's code is seen on PGlite and
 * PostgreSQL alike; BEGIN/COMMIT (PostgreSQL only: PGlite opens its transaction without drizzle) and the cookie
 * session store's own statements (connect-pg-simple on the pool) are not in the count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, signUpStudent, insertUpload, validApplication, statementCounter, DB_KIND, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let during: ReturnType<typeof statementCounter>;

beforeAll(async () => {
  t = await startTestApp();
  during = statementCounter(t);
});
afterAll(async () => { await t.close(); });

type Student = Awaited<ReturnType<typeof signUpStudent>>;
/**
 * The statements of one submit by a signed-in student (`student`, else a new one) with two uploads already made (the
 * wizard's way), for course `courseId`.
 */
async function submitStatements(student?: Student, courseId = 1): Promise<{ status: number; body: any; agent: any; sql: string[]; student: Student }> {
  const s = student ?? await signUpStudent(t);
  const docs = { idDocument: await insertUpload(t, s.user.id), transcripts: await insertUpload(t, s.user.id) };
  const { result: res, sql } = await during(() => s.agent.post('/api/applications').send(validApplication(courseId, docs)).then((r) => r));
  return { status: res.status, body: res.body, agent: s.agent, sql, student: s };
}

describe(`submit statements (${DB_KIND})`, () => {
  it('a submit runs at most 13 statements: no hold release on a new application, no second uploads check, no re-read of the row, the STOP list checked by the SMS insert', async () => {
    const first = await submitStatements();
    expect(first.status).toBe(201);
    // The first application of a student registered with name, e-mail and phone only also fills the profile's empty
    // details (date of birth, nationality, address): one UPDATE of the user row, only when there is something to fill,
    // and, as it fills nationality 'za', one read of the stored ID number under the row's lock (b58b710: 'za' next to
    // a passport number made the person's next profile save fail). Both happen once per applicant.
    expect(first.sql.filter((q) => /^update "users"/.test(q))).toHaveLength(1);
    expect(first.sql.filter((q) => /^select "id_number" from "users" .* for no key update$/.test(q))).toHaveLength(1);
    expect(first.sql.length, first.sql.join('\n')).toBeLessThanOrEqual(15);
    const { status, sql } = await submitStatements(first.student, 2);
    expect(status).toBe(201);
    // 13 = session user, fee setting, course, duplicate rule, uploads FOR SHARE (the race lock, 4e012b2), application,
    // payment, history, notification's user, notification, receipt mail, receipt SMS (user's phone; the row, inserted
    // unless the number is on the STOP list). The profile has the details now: no UPDATE of the user.
    expect(sql.filter((q) => /^update "users"|^select "id_number"/.test(q))).toEqual([]);
    expect(sql.length, sql.join('\n')).toBeLessThanOrEqual(13);
    // held_at only matters on status changes to/from payment_pending (markPaymentPending / restoreHeldPayments).
    expect(sql.filter((q) => /^update "payments"/.test(q))).toEqual([]);
    // The uploads are checked once, locked, inside the transaction.
    expect(sql.filter((q) => /from "uploads"/.test(q)).map((q) => /for share$/.test(q))).toEqual([true]);
    // The password hash is read only by the session's user lookup and notifyUser (outside this feature), not for the
    // applicant's details.
    expect(sql.filter((q) => /from "users"/.test(q) && q.includes('"password_hash"')).length).toBeLessThanOrEqual(2);
  });

  it('the answer is the stored application as GET /api/applications/:id shows it', async () => {
    const { status, body, agent } = await submitStatements();
    expect(status).toBe(201);
    const detail = await agent.get(`/api/applications/${body.application.id}`).expect(200);
    expect(body.application).toEqual(detail.body.application);
  });
});
