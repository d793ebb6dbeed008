/**
 * The application story (spec §2 Application form, §4 statuses; DESIGN §4 Applications):
 * - submit: the server decides status 'pending', the fee (the admin setting, else config APPLICATION_FEE, rand/dollars
 *   '50.00'; the route checks it against the fee the applicant agreed to, settings.service feeToCharge) and paymentStatus from the simulated payment; one active application per student per course (409);
 *   application, payment, history, notification and e-mail are written in one transaction, and so are the step-1
 *   details on the applicant's profile fields that are empty (spec §5 step 1 "Defaults from the logged-in user").
 * - setStatus: admins may set any status; each change is kept as history and notifies the student.
 */
import crypto from 'node:crypto';
import type { Db } from '../../db/client.ts';
import type { DocumentStore } from '../../storage/document-store.ts';
import { conflict, notFound, HttpError } from '../../http/errors.ts';
import { statusLabel } from '#contracts/common.ts';
import type { ApplicationSubmitSchema, StatusUpdateSchema, DocumentsUpdateSchema } from '#contracts/applications.ts';
import type { z } from 'zod';
import { anyCourse, applicableCourse } from '../courses/courses.service.ts';
import { SITE_CONTENT } from '../../site-content.ts';
import { assertOwnedUploads, describeUploads, lockCitedUploads } from '../uploads/uploads.service.ts';
import type { ApplicationDetail, ApplicationListItem, ApplicationView } from '#contracts/application-views.ts';
import { notifyUser } from '../notifications/notifications.service.ts';
import { applicationReceivedNotice, documentsReceivedNotice, statusChangedNotice } from '../../mail/messages.ts';
import { documentsToReplace } from '../document-reviews/document-reviews.service.ts';
import { rejectedSlotsOf } from '../document-reviews/document-reviews.repo.ts';
import { documentSmsSince, queueSms } from '../../sms/sms-outbox.ts';
import { applicationLink, receiptSms, statusSms } from '../../sms/sms-text.ts';
import { completePersonal, discardUploads, storeDataUrlDocuments } from './submit-input.ts';
import { fillEmptyPersonalDetails, type PersonalDetails } from '../../auth/users-repo.ts';
import { applicationEligibility } from '../eligibility/eligibility.service.ts';
import { markPaymentPending, restoreHeldPayments } from '../admin/admin.repo.ts';
import { findApplication, hasActiveApplication, insertApplication, toView, type ApplicationRow, updateStatus, historyFor, insertHistory, insertPayment, listApplications, lockApplication, paymentsFor, updateDocuments } from './applications.repo.ts';

type Submit = z.output<typeof ApplicationSubmitSchema>;
type StatusUpdate = z.output<typeof StatusUpdateSchema>;
type DocumentsUpdate = z.output<typeof DocumentsUpdateSchema>;

const DUPLICATE = 'You already have an active application for this course.';

/**
 * The submit's answer for a course deactivated while the applicant was in the wizard (reliability audit): what
 * happened, that the answers are kept (the wizard keeps its draft after any refusal), and what to do next, with the
 * college's phone from content/site.json when it has one. Not a spec string; the spec's 'Course Not Found' stays the
 * course page's (and an unknown course's) answer.
 */
export function courseClosedMessage(telephone = SITE_CONTENT.telephone): string {
  return `Applications for this course have closed. Your answers are saved — choose another course or contact the admissions office${telephone ? ` on ${telephone}` : ''}.`;
}

/**
 * The course `courseId` if it takes applications. Throws 409 `course_closed` (courseClosedMessage) when it exists but
 * is inactive, 404 'Course Not Found' when there is none. A staff-entered application (walk-in desk) keeps the 404.
 */
async function openCourse(db: Db, courseId: number, staff: boolean): ReturnType<typeof applicableCourse> {
  try {
    return await applicableCourse(db, courseId);
  } catch (err) {
    if (!staff && err instanceof HttpError && err.status === 404 && (await anyCourse(db, courseId))) throw new HttpError(409, 'course_closed', courseClosedMessage());
    throw err;
  }
}

function isUniqueViolation(err: any): boolean {
  return err?.code === '23505' || err?.cause?.code === '23505';
}

/** Who entered a staff-assisted application and where (issue #18 point 6). */
export interface AssistedEntry { adminId: number; campusId: number }

/**
 * Creates an application for `userId` from the spec §7 body or the wizard's (see ApplicationSubmitSchema):
 * personal details missing from the body come from the profile; data-URL documents become uploads under
 * `opts.store`; `opts.origin` makes the e-mail's and SMS's links absolute (the receipt also goes by SMS, issue #17). With `opts.entry`, an admin entered it on the
 * applicant's behalf: recorded on the application and in the first history row. `opts.applicant`: user `userId`'s
 * stored details as this request already read them (the signed-in caller's PublicUser), so the profile is not read
 * again; ignored when its id is not `userId`. Throws 404 'Course Not Found'
 * (unknown course; also an inactive one for a staff entry), 409 `course_closed` (the course was deactivated: the
 * applicant's wizard says so and keeps the draft), 400 (profile lacks details, uploads not theirs or deleted meanwhile: checked again inside the transaction
 * with the upload rows locked FOR SHARE, so a concurrent DELETE /api/uploads/:id either fails or wins), 413/415 (data-URL document too large or of a refused
 * type), 409 (duplicate). Nothing is written when it throws. With the application, the step-1 details fill the
 * applicant's profile fields (phone, date of birth, nationality, address) that are empty, never one that has a value
 * (profileGaps, fillEmptyPersonalDetails); a staff entry likewise fills the walk-in's new account.
 */
export async function submitApplication(db: Db, userId: number, input: Submit, fee: string, opts: { store: DocumentStore; origin: string; entry?: AssistedEntry; applicant?: PersonalDetails & { id: number } }): Promise<ApplicationView> {
  const entry = opts.entry;
  const course = await openCourse(db, input.courseId, Boolean(entry));
  if (await hasActiveApplication(db, userId, course.id)) throw conflict(DUPLICATE, { courseId: DUPLICATE });
  const known = opts.applicant?.id === userId ? opts.applicant : undefined;
  const { personal: { courseId: _id, ...personal }, fill } = await completePersonal(db, userId, input, known);
  const byId = Object.fromEntries(Object.entries(input.documents).filter(([, v]) => !v || !v.startsWith('data:')));
  // Before storing data-URL documents, so a body citing someone else's upload stores no file. With none to store,
  // lockCitedUploads in the transaction is the same check with the same 400, and nothing runs in between.
  if (Object.values(input.documents).some((v) => v && v.startsWith('data:'))) await assertOwnedUploads(db, userId, byId);
  const { documents, created } = await storeDataUrlDocuments(db, opts.store, userId, input.documents);
  const { courseId, academicHistory, payment } = input;
  const digits = (payment.cardNumber ?? '').replace(/\D/g, '');
  const paymentStatus = 'completed';
  let row: ApplicationRow;
  try {
    row = await db.transaction(async (tx) => {
      // Checked again under row locks: an upload deleted since the check above must not be stored (400, upload again).
      await lockCitedUploads(tx, userId, documents);
      const inserted = await insertApplication(tx, {
        userId, courseId, status: 'pending', personal, academicHistory,
        documents: Object.fromEntries(Object.entries(documents).filter(([, v]) => v)),
        paymentStatus, paymentAmount: fee, ...applicationEligibility(academicHistory, course),
        ...(entry ? { enteredBy: entry.adminId, enteredCampusId: entry.campusId } : {}),
      });
      const appId = inserted.id;
      // The step-1 details fill the applicant's empty profile fields, never one they have (spec §5 step 1 "Defaults
      // from the logged-in user": the next application starts with them). Before the receipt SMS reads the phone.
      await fillEmptyPersonalDetails(tx, userId, fill);
      await insertPayment(tx, {
        applicationId: appId, userId, method: payment.paymentMethod,
        last4: payment.paymentMethod === 'card' && digits.length >= 4 ? digits.slice(-4) : null,
        reference: `PAY-${crypto.randomBytes(6).toString('hex').toUpperCase()}`,
        amount: fee, currency: 'USD', status: paymentStatus,
      }, { firstPayment: true });
      await insertHistory(tx, { applicationId: appId, fromStatus: null, toStatus: 'pending', changedBy: entry?.adminId ?? userId, notes: null });
      await notifyUser(tx, userId, applicationReceivedNotice(appId, course.title), { applicationId: appId, origin: opts.origin });
      await queueSms(tx, { userId, applicationId: appId, kind: 'receipt', body: receiptSms(appId, course.title, applicationLink(opts.origin, appId)) });
      return inserted;
    });
  } catch (err) {
    await discardUploads(db, opts.store, userId, created);
    if (isUniqueViolation(err)) throw conflict(DUPLICATE, { courseId: DUPLICATE });
    throw err;
  }
  // The row as inserted and the course read above are the answer; a staff entry also shows who and where (joined names).
  if (entry) return (await findApplication(db, row.id, { userId, forAdmin: false }))!;
  return toView(row, course, false);
}

/**
 * Admin status change; a real change notifies the applicant (notification, e-mail, SMS with a link on
 * `origin`). Throws 404 when the application no longer exists. With `onlyFrom` (bulk decisions: only pending
 * applications; one admin's change: the status their screen showed, StatusUpdate.expectedStatus) the current
 * status is checked under the row lock, inside the same transaction as the change, so two concurrent decisions
 * cannot both pass the check (ASVS 5.0 V2.3.4); a status outside `onlyFrom` throws StatusChangedError (409) carrying
 * the status found. The status it already has, without notes, changes nothing: no history row, no notification.
 * A change to payment_pending marks the payment pending in the same transaction (markPaymentPending: no longer in
 * "Fees collected"); a later change to another status gives back the payments that hold took, unless a payment was
 * recorded meanwhile (restoreHeldPayments). `origin` makes the e-mail's link absolute.
 */
export async function setApplicationStatus(db: Db, adminId: number, id: number, update: StatusUpdate, opts: { onlyFrom?: readonly string[]; origin: string }): Promise<ApplicationView> {
  await db.transaction(async (t) => {
    const current = await lockApplication(t, id);
    if (!current) throw notFound('Application not found');
    if (opts.onlyFrom && !opts.onlyFrom.includes(current.status)) throw new StatusChangedError(current.status);
    // The same status again without notes (a double click, a retry, a second tab): nothing to record or tell.
    if (current.status === update.status && !update.notes) return;
    await updateStatus(t, id, update.status, update.notes || current.notes);
    // Payment pending means not paid: out of "Fees collected" in the same transaction (markPaymentPending, admin.repo.ts).
    if (update.status === 'payment_pending' && current.status !== 'payment_pending') await markPaymentPending(t, id);
    // Leaving it gives back what that hold took, unless a payment was recorded meanwhile (restoreHeldPayments).
    if (current.status === 'payment_pending' && update.status !== 'payment_pending') await restoreHeldPayments(t, id);
    await insertHistory(t, { applicationId: id, fromStatus: current.status, toStatus: update.status, notes: update.notes || null, changedBy: adminId });
    if (current.status !== update.status) {
      const documentsNeeded = update.status === 'documents_required' ? await documentsToReplace(t, id) : [];
      await notifyUser(t, current.userId, statusChangedNotice(id, update.status, { paymentAmount: current.paymentAmount, documentsNeeded }), { applicationId: id, origin: opts.origin });
      // A document-rejection SMS sent shortly before already told this phone what Documents Required says.
      if (update.status !== 'documents_required' || !await documentSmsSince(t, id)) {
        await queueSms(t, { userId: current.userId, applicationId: id, kind: 'status', body: statusSms(id, update.status, applicationLink(opts.origin, id)) });
      }
    }
  });
  return (await findApplication(db, id, { forAdmin: true }))!;
}

/**
 * Thrown by setApplicationStatus when the locked row's status is not one the caller allowed: 409 'This application is
 * now Accepted — someone changed it since you opened it. Reload to see the latest.' (spec §4 labels, statusLabel).
 */
export class StatusChangedError extends HttpError {
  current: string;
  constructor(current: string) {
    super(409, 'conflict', `This application is now ${statusLabel(current)} — someone changed it since you opened it. Reload to see the latest.`);
    this.current = current;
  }
}

/**
 * The applications of user `userId` (whatever the role), newest first, each with its payment (spec §7 GET /api/applications)
 * and `rejectedDocuments`, the slots whose current document was rejected (the dashboard's Documents milestone).
 */
export async function applicationsWithPayments(db: Db, userId: number): Promise<ApplicationListItem[]> {
  const list = await listApplications(db, userId);
  const [pays, rejected] = await Promise.all([paymentsFor(db, list.map((a) => a.id)), rejectedSlotsOf(db, list)]);
  return list.map((a) => ({ ...a, payment: pays.get(a.id) ?? null, rejectedDocuments: rejected.get(a.id) ?? [] }));
}

/** One application as an admin sees it (notes included), or undefined when there is none. */
export async function applicationForAdmin(db: Db, id: number): Promise<ApplicationView | undefined> {
  return findApplication(db, id, { forAdmin: true });
}

/**
 * The detail page of /applications/{id}: the application, its status timeline (notes only for admins),
 * its documents per slot (upload metadata, null when the file record is gone) and its payment.
 * Students only see their own: any other id → 404.
 */
export async function applicationDetail(db: Db, user: { id: number; role: string }, id: number): Promise<ApplicationDetail> {
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
 * Throws 404 (not theirs), 409 (status is not documents_required), 400 (uploads not theirs or deleted meanwhile;
 * checked again under FOR SHARE row locks inside the transaction).
 */
export async function addMissingDocuments(db: Db, userId: number, id: number, update: DocumentsUpdate, origin: string): Promise<ApplicationView> {
  const owned = await findApplication(db, id, { userId, forAdmin: false });
  if (!owned) throw notFound('Application not found');
  await assertOwnedUploads(db, userId, update.documents);
  await db.transaction(async (t) => {
    const current = await lockApplication(t, id);
    if (!current || current.userId !== userId) throw notFound('Application not found');
    if (current.status !== 'documents_required') throw conflict('Documents can only be added while your application is waiting for documents.');
    await lockCitedUploads(t, userId, update.documents);
    const merged = { ...(current.documents as Record<string, string>), ...Object.fromEntries(Object.entries(update.documents).filter(([, v]) => v)) } as Record<string, string>;
    await updateDocuments(t, id, merged, 'under_review');
    await insertHistory(t, { applicationId: id, fromStatus: current.status, toStatus: 'under_review', changedBy: userId, notes: 'Applicant uploaded the requested documents' });
    await notifyUser(t, userId, documentsReceivedNotice(id), { applicationId: id, origin });
  });
  return (await findApplication(db, id, { userId, forAdmin: false }))!;
}
