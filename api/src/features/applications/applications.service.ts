/**
 * The application story (spec §2 Application form, §4 statuses; DESIGN §4 Applications):
 * - submit: the server decides status 'pending', the fee (config APPLICATION_FEE, rand/dollars '50.00')
 *   and paymentStatus from the simulated payment; one active application per student per course (409);
 *   application, payment, history, notification and e-mail are written in one transaction.
 * - setStatus: admins may set any status; each change is kept as history and notifies the student.
 */
import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { applications } from '../../db/schema/applications.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { statusLabel } from '#contracts/common.ts';
import type { ApplicationSubmitSchema, StatusUpdateSchema, DocumentsUpdateSchema } from '#contracts/applications.ts';
import type { z } from 'zod';
import { applicableCourse } from '../courses/courses.service.ts';
import { assertOwnedUploads, describeUploads, type UploadView } from '../uploads/uploads.service.ts';
import { notifyUser } from '../notifications/notifications.service.ts';
import { findApplication, hasActiveApplication, historyFor, insertHistory, insertPayment, listApplications, lockApplication, paymentsFor, updateDocuments, type ApplicationView, type PaymentView, type TimelineEntry } from './applications.repo.ts';

type Submit = z.output<typeof ApplicationSubmitSchema>;
type StatusUpdate = z.output<typeof StatusUpdateSchema>;
type DocumentsUpdate = z.output<typeof DocumentsUpdateSchema>;

const DUPLICATE = 'You already have an active application for this course.';

function isUniqueViolation(err: any): boolean {
  return err?.code === '23505' || err?.cause?.code === '23505';
}

/** Creates an application for `userId`. Throws 404 (unknown/inactive course), 400 (foreign uploads), 409 (duplicate). */
export async function submitApplication(db: Db, userId: number, input: Submit, fee: string): Promise<ApplicationView> {
  const course = await applicableCourse(db, input.courseId);
  if (await hasActiveApplication(db, userId, course.id)) throw conflict(DUPLICATE, { courseId: DUPLICATE });
  await assertOwnedUploads(db, userId, input.documents);
  const { courseId, academicHistory, documents, payment, certification: _c, ...personal } = input;
  const digits = (payment.cardNumber ?? '').replace(/\D/g, '');
  const paymentStatus = 'completed';
  let id: number;
  try {
    id = await db.transaction(async (tx) => {
      const [row] = await tx.insert(applications).values({
        userId, courseId, status: 'pending', personal, academicHistory,
        documents: Object.fromEntries(Object.entries(documents).filter(([, v]) => v)),
        paymentStatus, paymentAmount: fee,
      }).returning({ id: applications.id });
      await insertPayment(tx as unknown as Db, {
        applicationId: row.id, userId, method: payment.paymentMethod,
        last4: payment.paymentMethod === 'card' && digits.length >= 4 ? digits.slice(-4) : null,
        reference: `PAY-${crypto.randomBytes(6).toString('hex').toUpperCase()}`,
        amount: fee, currency: 'USD', status: paymentStatus,
      });
      await insertHistory(tx as unknown as Db, { applicationId: row.id, fromStatus: null, toStatus: 'pending', changedBy: userId, notes: null });
      await notifyUser(tx as unknown as Db, userId, `Your application for ${course.title} (APP-${row.id}) has been received and is under review.`, { applicationId: row.id, subject: 'Application received' });
      return row.id;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(DUPLICATE, { courseId: DUPLICATE });
    throw err;
  }
  return (await findApplication(db, id, { userId, forAdmin: false }))!;
}

/** Admin status change. Throws 404 when the application no longer exists. */
export async function setApplicationStatus(db: Db, adminId: number, id: number, update: StatusUpdate): Promise<ApplicationView> {
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const current = await lockApplication(t, id);
    if (!current) throw notFound('Application not found');
    await tx.update(applications).set({ status: update.status, notes: update.notes || current.notes, updatedAt: new Date() }).where(eq(applications.id, id));
    await insertHistory(t, { applicationId: id, fromStatus: current.status, toStatus: update.status, notes: update.notes || null, changedBy: adminId });
    if (current.status !== update.status) {
      await notifyUser(t, current.userId, `Your application APP-${id} is now: ${statusLabel(update.status)}.`, { applicationId: id, subject: 'Your application status changed' });
    }
  });
  return (await findApplication(db, id, { forAdmin: true }))!;
}

/** An application in a list, with its recorded payment (or null). */
export type ApplicationListItem = ApplicationView & { payment: PaymentView | null };

/** The user's own applications (or all for an admin), newest first, each with its payment. */
export async function applicationsWithPayments(db: Db, opts: { userId?: number; forAdmin: boolean }): Promise<ApplicationListItem[]> {
  const list = await listApplications(db, opts);
  const pays = await paymentsFor(db, list.map((a) => a.id));
  return list.map((a) => ({ ...a, payment: pays.get(a.id) ?? null }));
}

/**
 * The detail page of /applications/{id}: the application, its status timeline (notes only for admins),
 * its documents per slot (upload metadata, null when the file record is gone) and its payment.
 * Students only see their own: any other id → 404.
 */
export async function applicationDetail(db: Db, user: { id: number; role: string }, id: number): Promise<{
  application: ApplicationView; timeline: TimelineEntry[]; documents: Record<string, UploadView | null>; payment: PaymentView | null;
}> {
  const isAdmin = user.role === 'admin';
  const application = await findApplication(db, id, { userId: isAdmin ? undefined : user.id, forAdmin: isAdmin });
  if (!application) throw notFound('Application not found');
  const slots = Object.entries(application.documents ?? {}).filter(([, v]) => typeof v === 'string' && v);
  const files = await describeUploads(db, slots.map(([, v]) => v));
  const [timeline, pays] = await Promise.all([historyFor(db, id, isAdmin), paymentsFor(db, [id])]);
  return { application, timeline, documents: Object.fromEntries(slots.map(([k, v]) => [k, files.get(v) ?? null])), payment: pays.get(id) ?? null };
}

/**
 * The applicant adds or replaces documents while the status is documents_required (issue #5). The application
 * goes back to under_review, the change is kept as history and the applicant is notified, in one transaction.
 * Throws 404 (not theirs), 409 (status is not documents_required), 400 (uploads not theirs).
 */
export async function addMissingDocuments(db: Db, userId: number, id: number, update: DocumentsUpdate): Promise<ApplicationView> {
  const owned = await findApplication(db, id, { userId, forAdmin: false });
  if (!owned) throw notFound('Application not found');
  await assertOwnedUploads(db, userId, update.documents);
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const current = await lockApplication(t, id);
    if (!current || current.userId !== userId) throw notFound('Application not found');
    if (current.status !== 'documents_required') throw conflict('Documents can only be added while your application is waiting for documents.');
    const merged = { ...(current.documents as Record<string, string>), ...Object.fromEntries(Object.entries(update.documents).filter(([, v]) => v)) } as Record<string, string>;
    await updateDocuments(t, id, merged, 'under_review');
    await insertHistory(t, { applicationId: id, fromStatus: current.status, toStatus: 'under_review', changedBy: userId, notes: 'Applicant uploaded the requested documents' });
    await notifyUser(t, userId, `We received your documents for APP-${id}. Your application is under review again.`, { applicationId: id, subject: 'Documents received' });
  });
  return (await findApplication(db, id, { userId, forAdmin: false }))!;
}
