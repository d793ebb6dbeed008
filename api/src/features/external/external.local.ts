/**
 * The `local` external driver (DESIGN §4): the external system lives in this database.
 * - login: the signed-in admin's own portal e-mail and password (a second factor of presence, not a second
 *   account); anyone else's credentials are refused even if valid.
 * - branches: the four campuses with live counts of active students.
 * - students: external_students; accepted applications become students (idempotent per application).
 * - payments: the external_payments ledger; idempotency keys are scoped per admin.
 */
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { badRequest, conflict, HttpError, notFound } from '../../http/errors.ts';
import { findUserById } from '../../auth/users-repo.ts';
import { verifyDummy, verifyPassword } from '../../auth/password.ts';
import type { ExternalPayment, ExternalPaymentData, ExternalStudent, ExternalStudentInput } from '#contracts/external.ts';
import { todayInSouthAfrica } from '#contracts/sa-calendar.ts';
import { externalLoginFailed, type ExternalContext, type ExternalDriver, type StudentFromApplication } from './external.driver.ts';
import {
  countStudents, findCampus, firstCampus, insertPayment, insertStudent, paymentPagesNewestFirst, paymentTotals, selectBranches,
  selectPaymentPage, selectPayments, selectStudents,
} from './external.repo.ts';
import { sortTotals } from './external.totals.ts';

const isUniqueViolation = (err: any): boolean => err?.code === '23505' || err?.cause?.code === '23505';
/** Today's date 'YYYY-MM-DD' in South Africa: the enrolment date the college writes (not the UTC day). */
const today = () => todayInSouthAfrica();
const numericId = (id: string): number | undefined => (/^\d{1,9}$/.test(id) ? Number(id) : undefined);
/** LIMIT/OFFSET of a 1-based page. */
const pageRange = (p: { page: number; pageSize: number }) => ({ limit: p.pageSize, offset: (p.page - 1) * p.pageSize });

/** Same payment? (a replayed key must carry the same payload) */
function samePayment(p: ExternalPayment, input: ExternalPaymentData): boolean {
  return p.studentId === input.studentId && p.amount === input.amount && p.currency === input.currency && p.method === input.method;
}

/**
 * The `local` driver (EXTERNAL_DRIVER=local, the default): the external system simulated in this database (campuses as
 * branches, external_students, external_payments); login takes the signed-in admin's own portal e-mail and password. Same errors as the http driver.
 */
export function localDriver(db: Db): ExternalDriver {
  async function campusFor(branchId: string | undefined) {
    if (branchId === undefined) return firstCampus(db);
    const id = numericId(branchId);
    return id === undefined ? undefined : findCampus(db, id);
  }

  async function studentById(id: number): Promise<ExternalStudent | undefined> {
    return (await selectStudents(db, { id }))[0];
  }

  return {
    name: 'local',

    async health() {
      await db.execute(sql`select 1`);
      return { status: 'OK', message: 'External system is available' };
    },

    async login(creds, portalUser) {
      const user = await findUserById(db, portalUser.id);
      if (!user || user.email !== creds.email) { await verifyDummy(creds.password); throw externalLoginFailed(); }
      if (!(await verifyPassword(user.passwordHash, creds.password))) throw externalLoginFailed();
      return { user: { id: `local-${user.id}`, email: user.email, name: `${user.firstName} ${user.lastName}`.trim() } };
    },

    async logout() {},

    listBranches: () => selectBranches(db),

    async branchStudents(_ctx, branchId, page) {
      const id = numericId(branchId);
      const branch = id === undefined ? undefined : (await selectBranches(db, id))[0];
      const campus = id === undefined ? undefined : await findCampus(db, id);
      if (!branch || !campus) throw notFound('Branch not found');
      const f = { campusSlug: campus.slug };
      const [students, total] = await Promise.all([selectStudents(db, f, pageRange(page)), countStudents(db, f)]);
      return { branch, students, total };
    },

    async listStudents(_ctx, q) {
      const f = { search: q.search, status: q.status };
      const [students, total] = await Promise.all([selectStudents(db, f, pageRange(q)), countStudents(db, f)]);
      return { students, total };
    },

    async createStudent(_ctx, input: ExternalStudentInput) {
      const campus = await campusFor(input.branchId);
      if (!campus) throw badRequest('Branch not found', { branchId: 'Branch not found' });
      if ((await selectStudents(db, { email: input.email })).length) {
        throw conflict('A student with this email address is already enrolled', { email: 'A student with this email address is already enrolled' });
      }
      const id = await insertStudent(db, {
        name: input.name, email: input.email, phone: input.phone ?? null, address: input.address ?? null,
        campus: campus.slug, course: input.course, status: input.status, enrollmentDate: today(),
      });
      return (await studentById(id))!;
    },

    async studentFromApplication(_ctx, input: StudentFromApplication) {
      const existing = (await selectStudents(db, { applicationId: input.applicationId }))[0];
      if (existing) return { student: existing, created: false };
      const campus = await campusFor(input.branchId);
      if (!campus) throw badRequest('Branch not found', { branchId: 'Branch not found' });
      try {
        const id = await insertStudent(db, {
          applicationId: input.applicationId, name: input.name, email: input.email, phone: input.phone, address: input.address,
          campus: campus.slug, course: input.course, status: 'active', enrollmentDate: today(),
        });
        return { student: (await studentById(id))!, created: true };
      } catch (err) {
        // A concurrent request enrolled it first (unique application_id): answer that student.
        if (!isUniqueViolation(err)) throw err;
        return { student: (await selectStudents(db, { applicationId: input.applicationId }))[0], created: false };
      }
    },

    async listPayments(_ctx, page) {
      const [payments, sums] = await Promise.all([selectPaymentPage(db, pageRange(page)), paymentTotals(db)]);
      return { payments, total: sums.count, totals: sortTotals(sums.totals) };
    },

    allPayments: () => paymentPagesNewestFirst(db),

    async addPayment(ctx: ExternalContext, input, key) {
      const scopedKey = key ? `${ctx.portalUserId}:${key}` : undefined;
      const replay = async (): Promise<{ payment: ExternalPayment; created: boolean } | undefined> => {
        if (!scopedKey) return undefined;
        const prior = (await selectPayments(db, { idempotencyKey: scopedKey }))[0];
        if (!prior) return undefined;
        if (!samePayment(prior, input)) throw new HttpError(409, 'idempotency_conflict', 'This idempotency key was already used for a different payment');
        return { payment: prior, created: false };
      };
      const earlier = await replay();
      if (earlier) return earlier;
      const sid = numericId(input.studentId);
      const student = sid === undefined ? undefined : await studentById(sid);
      if (!student) throw badRequest('Student not found', { studentId: 'Student not found' });
      try {
        const id = await insertPayment(db, {
          reference: input.reference ?? `EXT-${crypto.randomBytes(5).toString('hex').toUpperCase()}`,
          studentId: sid!, amount: input.amount, currency: input.currency, method: input.method, status: 'completed',
          branchName: student.campus, description: input.description ?? null, idempotencyKey: scopedKey ?? null,
          createdBy: ctx.portalUserId,
        });
        return { payment: (await selectPayments(db, { id }))[0], created: true };
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        return (await replay())!;
      }
    },
  };
}
