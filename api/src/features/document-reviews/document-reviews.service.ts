/**
 * A checklist per document (issue #16 point 3):
 * - checklist: each slot of spec §3 with its state — missing, received (with size and SHA-256 as the receipt),
 *   verified, or rejected with the admin's reason — and the history of every review. The state of a slot is the
 *   latest review of the upload now in it; a replaced document starts again as received.
 * - reviewDocument (admin): records a review; a rejection notifies the applicant in the portal, by e-mail and by
 *   SMS (issue #17, link on `origin`), in the same transaction as the review (DESIGN §4 Notifications and e-mail) —
 *   while the application is open. On a decided one (accepted, rejected) the review is kept for the record and asks
 *   the applicant for nothing: they could not send a new file (to ask for one, the admin reopens it, e.g. Documents Required).
 * - replaceDocument (owner): puts a new upload into a slot whose current document was rejected, while the application
 *   is open (spec §4: pending, under_review, documents_required, payment_pending); nothing else.
 * Errors: 404 unknown application or not the student's own; 409 no document to review / not rejected / application
 * decided (DECIDED_MESSAGE); 400 foreign upload.
 */
import type { z } from 'zod/mini';
import type { Db, DbOrTx } from '../../db/client.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { DOCUMENT_SLOTS, FILTER_GROUPS } from '#contracts/application-steps.ts';
import { DOCUMENT_REPLACED, documentAlreadyReviewed, type Checklist, type ChecklistItem, type DocumentReviewSchema, type DocumentSlotKey, type ReviewEntry, type ReviewResult } from '#contracts/document-reviews.ts';
import { assertOwnedUploads, describeUploads, lockCitedUploads } from '../uploads/uploads.service.ts';
import { notifyUser } from '../notifications/notifications.service.ts';
import { documentRejectedNotice, documentReplacedNotice } from '../../mail/messages.ts';
import { queueSms } from '../../sms/sms-outbox.ts';
import { applicationLink, documentRejectedSms } from '../../sms/sms-text.ts';
import { applicationDocuments, insertReview, latestReview, lockApplicationDocuments, reviewsFor, setSlot, type ReviewRow } from './document-reviews.repo.ts';

type Review = z.output<typeof DocumentReviewSchema>;

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());
const labelOf = (slot: string) => DOCUMENT_SLOTS.find((s) => s.key === slot)?.label ?? slot;

/**
 * Whether an application with `status` is still open (spec §4: the statuses of the Pending tab, FILTER_GROUPS.pending —
 * pending, under_review, documents_required, payment_pending); accepted and rejected are decided, and closed.
 */
export const isOpenStatus = (status: string): boolean => (FILTER_GROUPS.pending ?? []).includes(status);

/** The 409 message when the applicant replaces a document of a decided (accepted or rejected) application. */
export const DECIDED_MESSAGE = 'This application has been decided, so its documents can no longer be replaced.';

/** The checklist of application `id` for its owner or an admin (reviewer names and e-mails for admins only); 404 otherwise. */
export async function documentChecklist(db: Db, user: { id: number; role: string }, id: number): Promise<Checklist> {
  return (await readChecklist(db, user, id)).checklist;
}

/** documentChecklist's work, with the application's status (replaceDocument needs both; one read of the row). */
async function readChecklist(db: Db, user: { id: number; role: string }, id: number): Promise<{ status: string; checklist: Checklist }> {
  const app = await applicationDocuments(db, id);
  const isAdmin = user.role === 'admin';
  if (!app || (!isAdmin && app.userId !== user.id)) throw notFound('Application not found');
  const reviews = await reviewsFor(db, id);
  const files = await describeUploads(db, Object.values(app.documents).filter(Boolean));
  const items: ChecklistItem[] = DOCUMENT_SLOTS.map((s) => {
    const uploadId = app.documents[s.key];
    const file = uploadId ? files.get(uploadId) : undefined;
    const latest = [...reviews].reverse().find((r) => r.slot === s.key && r.uploadId === uploadId);
    return {
      slot: s.key, label: s.label, required: s.required,
      state: !uploadId ? 'missing' : latest ? latest.status : 'received',
      upload: file ? { id: file.id, name: file.name, size: file.size, sha256: file.sha256, createdAt: file.createdAt } : null,
      reason: latest?.status === 'rejected' ? latest.reason : null,
      reviewedAt: latest ? iso(latest.createdAt) : null,
    };
  });
  const history: ReviewEntry[] = reviews.map((r: ReviewRow) => ({
    slot: r.slot as DocumentSlotKey, uploadId: r.uploadId, status: r.status, reason: r.reason, createdAt: iso(r.createdAt),
    ...(isAdmin ? { reviewer: r.reviewerName, reviewerEmail: r.reviewerEmail } : {}),
  }));
  return { status: app.status, checklist: { items, history } };
}

/**
 * Labels of the documents application `id` still needs (spec §3 labels, slot order): a required slot that is empty and
 * a slot whose current document's latest review rejected it. [] for an unknown application. Read on `db` (the caller's
 * transaction: a status change to documents_required names them in its mail).
 */
export async function documentsToReplace(db: DbOrTx, id: number): Promise<string[]> {
  const app = await applicationDocuments(db, id);
  if (!app) return [];
  const reviews = await reviewsFor(db, id);
  return DOCUMENT_SLOTS.filter((s) => {
    const uploadId = app.documents[s.key];
    if (!uploadId) return s.required;
    return [...reviews].reverse().find((r) => r.slot === s.key && r.uploadId === uploadId)?.status === 'rejected';
  }).map((s) => s.label);
}

/**
 * Admin review of the document in `slot`. 404 unknown application; 409 when the slot holds no document, or when
 * `review.uploadId` is given and the slot now holds another upload (DOCUMENT_REPLACED: the applicant replaced the
 * file the admin was looking at; checked under the application's row lock, which replaceDocument also takes).
 * The same status and reason as the latest review of that upload in that slot records nothing and sends nothing
 * again (answers the checklist as it is). Otherwise, when `review.expectedState` (the state the admin saw) is given
 * and another review has changed it, 409 documentAlreadyReviewed ('…already marked Verified by {name}…'), nothing sent.
 * A rejection also goes by SMS (issue #17). `origin` makes the e-mail's and SMS's links absolute (linkOrigin, issue #14 point 9).
 * Answers the admin's checklist and `decided` (ReviewResult: the application's status under the lock was accepted or rejected).
 */
export async function reviewDocument(db: Db, adminId: number, id: number, slot: DocumentSlotKey, review: Review, origin: string): Promise<ReviewResult> {
  const decided = await db.transaction(async (t) => {
    const app = await lockApplicationDocuments(t, id);
    if (!app) throw notFound('Application not found');
    const uploadId = app.documents[slot];
    if (!uploadId) throw conflict('There is no document in this slot to review.');
    if (review.uploadId && review.uploadId !== uploadId) throw conflict(DOCUMENT_REPLACED);
    const latest = await latestReview(t, id, slot, uploadId);
    // The same decision again (a double click, a second tab, a retry): already recorded and already sent.
    if (latest && latest.status === review.status && (latest.reason ?? '') === (review.reason ?? '')) return !isOpenStatus(app.status);
    // Another admin decided since this admin's screen was drawn: refuse rather than overrule unseen (nothing is sent).
    if (latest && review.expectedState && review.expectedState !== latest.status) {
      throw conflict(documentAlreadyReviewed(latest.status === 'verified' ? 'Verified' : 'Rejected', latest.reviewerName));
    }
    await insertReview(t, { applicationId: id, slot, uploadId, status: review.status, reason: review.reason || null, reviewedBy: adminId });
    // "Please upload a new one" only while the applicant can: a decided application takes no replacement.
    if (review.status === 'rejected' && isOpenStatus(app.status)) {
      await notifyUser(t, app.userId, documentRejectedNotice(id, slot, review.reason ?? ''), { applicationId: id, origin });
      await queueSms(t, { userId: app.userId, applicationId: id, kind: 'document_rejected', body: documentRejectedSms(id, labelOf(slot), review.reason ?? '', applicationLink(origin, id)) });
    }
    return !isOpenStatus(app.status);
  });
  return { ...(await documentChecklist(db, { id: adminId, role: 'admin' }, id)), decided };
}

/** The 409 message when an applicant "replaces" a rejected document with that same upload (security audit F4). */
export const SAME_UPLOAD_MESSAGE = 'Please upload a new document to replace the rejected one.';

/**
 * The applicant replaces the rejected document in `slot` with their upload `uploadId`, and gets a receipt (portal and
 * e-mail, documentReplacedNotice; `origin` makes its link absolute) in the same transaction. 404 / 409 / 400 as above,
 * and 409 SAME_UPLOAD_MESSAGE (nothing stored or sent) when `uploadId` is the rejected upload itself; the upload is checked again under a FOR SHARE row lock in the transaction, so one deleted meanwhile is a 400.
 * 409 DECIDED_MESSAGE (nothing stored or sent) once the application is accepted or rejected (isOpenStatus), checked
 * first and again under the row lock, which a status change also takes (a decision made meanwhile wins).
 */
export async function replaceDocument(db: Db, userId: number, id: number, slot: DocumentSlotKey, uploadId: string, origin: string): Promise<Checklist> {
  const { status, checklist: before } = await readChecklist(db, { id: userId, role: 'student' }, id);
  if (!isOpenStatus(status)) throw conflict(DECIDED_MESSAGE);
  const rejected = before.items.find((i) => i.slot === slot);
  if (rejected?.state !== 'rejected') throw conflict('Only a rejected document can be replaced.');
  // The same upload again would leave the slot rejected and still send "We received your new …" each time
  // (security audit F4: 5 PUTs, 5 mails).
  if (rejected.upload?.id === uploadId) throw conflict(SAME_UPLOAD_MESSAGE);
  await assertOwnedUploads(db, userId, { [slot]: uploadId });
  await db.transaction(async (t) => {
    const app = await lockApplicationDocuments(t, id);
    if (!app || app.userId !== userId) throw notFound('Application not found');
    if (!isOpenStatus(app.status)) throw conflict(DECIDED_MESSAGE);
    // Checked again under the lock: a second replacement racing this one finds the slot no longer rejected.
    if (app.documents[slot] !== rejected.upload?.id) throw conflict('Only a rejected document can be replaced.');
    await lockCitedUploads(t, userId, { [slot]: uploadId });
    await setSlot(t, id, { ...app.documents, [slot]: uploadId });
    await notifyUser(t, userId, documentReplacedNotice(id, slot), { applicationId: id, origin });
  });
  return documentChecklist(db, { id: userId, role: 'student' }, id);
}
