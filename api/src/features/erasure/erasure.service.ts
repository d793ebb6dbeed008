/**
 * An admin decides an erasure request (POPIA §24; issue #4: "Delete my account" by someone with applications files a
 * request for an admin). Erase removes the person but keeps the college's application records; decline keeps
 * everything and tells the person why. Both lock the request row: only an open request can be decided (409).
 */
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { DocumentStore } from '../../storage/document-store.ts';
import { findUserById } from '../../auth/users-repo.ts';
import { endAllSessions } from '../../auth/session.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { removeOutboxFilesOf } from '../../mail/outbox-files.ts';
import { and, eq } from 'drizzle-orm';
import { conflict, notFound } from '../../http/errors.ts';
import { deleteFormSubmissions, deleteLoginCounters, deleteMessagesTo, deleteUserRow, storedUploadNames, textedNumbers } from '../profile/profile.repo.ts';
import { erasureRequests, users } from '../../db/schema/users.ts';
import type { DbOrTx } from '../../db/client.ts';
import { removeTusUploadsAfterErasure } from '../profile/profile.service.ts';
import type { ErasureRequestView } from '#contracts/erasure.ts';
import { anonymiseUserRow, eraseOwnRows, lockErasureRequest, resolveErasureRequest } from './erasure.repo.ts';
import { siteOrigin } from '../../mail/links.ts';
import { greeting, withFooter } from '../../mail/messages.ts';

const view = (r: { id: number; userId: number; status: 'open' | 'done' | 'declined'; reason: string | null; decisionReason: string | null; createdAt: Date; resolvedAt: Date | null }): ErasureRequestView => ({
  id: r.id, userId: r.userId, status: r.status, reason: r.reason, decisionReason: r.decisionReason, createdAt: r.createdAt.toISOString(), resolvedAt: r.resolvedAt?.toISOString() ?? null,
});

/** Subject of the e-mail telling the person their data is gone (erasedMail). */
const ERASED_SUBJECT = 'Your personal data has been erased';

/** The e-mail telling the person their data is gone: what was kept and why. Names no one (the address is enough). */
function erasedMail(to: string, requestId: number, origin: string) {
  return {
    to, subject: ERASED_SUBJECT,
    text: withFooter(`Hello,\n\nAs you asked (erasure request ${requestId}), the college has erased your personal data from the applicant portal: `
      + 'your name, e-mail address, phone number, ID number, date of birth, address, emergency contact, NSC results and academic '
      + 'history, your uploaded documents, saved drafts and notifications. Your account is closed and can no longer be signed in to.\n\n'
      + 'We also removed the notes staff wrote on your applications and the reasons given for rejecting your documents.\n\n'
      + 'What we kept, and why: the record of each application you made (course, status, dates, the history of its status and whether '
      + 'each document was verified or rejected) and of its payment (amount, reference and status), without your name or details. '
      + 'The college must keep admission and financial records '
      + '(POPIA §14 allows keeping records that a law requires).\n\nThis is the last e-mail we send to this address.\n', origin),
  };
}

/**
 * Erases the person behind open request `id`, in one transaction with the request row locked: the mail and SMS sent
 * to them are deleted and the confirmation mail is queued to their address (before it is replaced), sessions and the
 * failed-login counter of the address end, their form messages (verified address only), own rows and answers go (eraseOwnRows), the users row is anonymised,
 * the request is done. The documents' bytes are deleted from the store last, still inside the transaction: a store
 * failure rolls everything back and the request stays open to retry, and documents are never deleted for a request
 * another admin declined meanwhile (after the commit, a failure would leave bytes no row points to, which the
 * row-driven orphan purge never finds). Unfinished tus uploads go after the commit (the 24 h tus purge backs that up),
 * and so do the file drivers' copies of the mail and SMS sent to the person (removeOutboxFilesOf: DATA_DIR/outbox and
 * sms-outbox; a failure is logged, the 7-day file age limit backs it up; privacy audit F8).
 * Throws 404 unknown request, 409 'This request was already done.' / '… declined.'.
 */
export async function eraseRequest(db: Db, config: Config, store: DocumentStore, id: number, adminId: number): Promise<ErasureRequestView> {
  const { request, userId, outboxOwner } = await db.transaction(async (tx) => {
    const req = await lockErasureRequest(tx, id);
    if (!req) throw notFound('Erasure request not found');
    if (req.status !== 'open') throw conflict(`This request was already ${req.status}.`);
    const user = await findUserById(tx, req.userId);
    if (!user) throw notFound('Erasure request not found');
    const { files, phones } = await erasePerson(tx, user);
    await enqueueMail(tx, erasedMail(user.email, req.id, siteOrigin(config)));
    const done = await resolveErasureRequest(tx, req.id, 'done');
    await Promise.all(files.map((key) => store.delete(key)));
    return { request: done, userId: user.id, outboxOwner: { emails: [user.email], phones } };
  });
  await removeTusUploadsAfterErasure(config, store, userId);
  await removeOutboxFilesOf(config.dataDir, { ...outboxOwner, exceptSubject: ERASED_SUBJECT }).catch((err) => {
    console.warn(`[privacy] erasure request ${id}: could not remove the person's outbox files: ${err?.code ?? err?.message ?? err}`);
  });
  console.info(`[privacy] erasure request ${id} carried out by admin ${adminId}: user ${userId} anonymised`);
  return view(request);
}

/**
 * The erasure itself, inside `tx` (eraseRequest, reapplyErasures): the mail and SMS to the person, their form messages
 * (verified address only), the failed-login counter of the address, their sessions and own rows go (eraseOwnRows) and
 * the users row is anonymised. Resolves to the store keys of their documents (to delete once the rows are gone) and
 * the numbers they were texted on (removeOutboxFilesOf).
 */
async function erasePerson(tx: DbOrTx, user: NonNullable<Awaited<ReturnType<typeof findUserById>>>): Promise<{ files: string[]; phones: string[] }> {
  const files = await storedUploadNames(tx, user.id);
  const phones = await textedNumbers(tx, user);
  await deleteMessagesTo(tx, user);
  await deleteFormSubmissions(tx, user);
  await deleteLoginCounters(tx, user.email);
  await endAllSessions(tx, user.id);
  await eraseOwnRows(tx, user.id);
  await anonymiseUserRow(tx, user.id);
  return { files, phones };
}

/** The users of a newer copy of the database (the one in use): every id, and the ids it has erased. */
export interface ErasureLedger { userIds: number[]; erasedUserIds: number[] }

/** Reads the ErasureLedger of a database through `query` (users.id; erased = the address anonymiseUserRow gives). */
export async function readErasureLedger(query: (sql: string) => Promise<{ rows: Array<Record<string, unknown>> }>): Promise<ErasureLedger> {
  const { rows } = await query(`select id, email like 'erased-%@erased.invalid' as erased from users`);
  return { userIds: rows.map((r) => Number(r.id)), erasedUserIds: rows.filter((r) => r.erased === true || r.erased === 't').map((r) => Number(r.id)) };
}

/**
 * Carries out again, on a restored copy `db` (and its documents in `store`), what the newer database described by
 * `ledger` has done since the backup (privacy audit F2: a backup taken before an erasure brought the person back):
 * each user erased there but not here is erased here (erasePerson, no mail sent; an open request of theirs becomes
 * done), and each user here whose id the newer database no longer has (below its highest id: ids are never reused,
 * so they deleted their account) is deleted with their documents. Resolves to how many of each; rejects on database
 * or store errors (what was done so far stays done; running it again skips it).
 */
export async function reapplyErasures(db: Db, store: DocumentStore, ledger: ErasureLedger): Promise<{ erased: number; deleted: number }> {
  const known = new Set(ledger.userIds);
  const erasedThere = new Set(ledger.erasedUserIds);
  const highest = ledger.userIds.reduce((a, b) => Math.max(a, b), 0);
  let erased = 0;
  let deleted = 0;
  for (const { id } of await db.select({ id: users.id }).from(users).orderBy(users.id)) {
    if (erasedThere.has(id)) {
      const files = await db.transaction(async (tx) => {
        const user = await findUserById(tx, id);
        if (!user || user.email === `erased-${id}@erased.invalid`) return null;
        const { files } = await erasePerson(tx, user);
        await tx.update(erasureRequests).set({ status: 'done', resolvedAt: new Date() }).where(and(eq(erasureRequests.userId, id), eq(erasureRequests.status, 'open')));
        return files;
      });
      if (files) { await Promise.all(files.map((key) => store.delete(key))); erased++; }
    } else if (!known.has(id) && id < highest) {
      const files = await db.transaction(async (tx) => {
        const user = await findUserById(tx, id);
        if (!user) return [];
        const files = await storedUploadNames(tx, id);
        await endAllSessions(tx, id);
        await deleteUserRow(tx, user);
        return files;
      });
      await Promise.all(files.map((key) => store.delete(key)));
      deleted++;
    }
  }
  return { erased, deleted };
}

/**
 * Declines open request `id` (row locked): status declined, resolvedAt now, `reason` stored on the request and e-mailed
 * to the person in the same transaction (the mail's footer links `origin`); the account stays as it was. Throws 404 unknown request, 409 when not open.
 */
export async function declineRequest(db: Db, id: number, adminId: number, reason: string, origin: string): Promise<ErasureRequestView> {
  const request = await db.transaction(async (tx) => {
    const req = await lockErasureRequest(tx, id);
    if (!req) throw notFound('Erasure request not found');
    if (req.status !== 'open') throw conflict(`This request was already ${req.status}.`);
    const user = await findUserById(tx, req.userId);
    if (!user) throw notFound('Erasure request not found');
    const row = await resolveErasureRequest(tx, req.id, 'declined', reason);
    await enqueueMail(tx, {
      to: user.email, subject: 'Your request to delete your account',
      text: withFooter(`${greeting(user.firstName)}\n\nThe college has reviewed your request to delete your account and personal data (erasure request ${req.id}) and cannot carry it out now, for this reason:\n\n${reason}\n\nYour account stays open. If you have questions, reply to the admissions office.\n`, origin),
    });
    return row;
  });
  console.info(`[privacy] erasure request ${id} declined by admin ${adminId}`);
  return view(request);
}
