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
import { and, eq, sql } from 'drizzle-orm';
import { conflict, notFound } from '../../http/errors.ts';
import { deleteFormSubmissions, deleteLoginCounters, deleteMessagesTo, deleteUserRow, storedUploadNames, textedNumbers } from '../profile/profile.repo.ts';
import { erasureRequests, users } from '../../db/schema/users.ts';
import type { DbOrTx } from '../../db/client.ts';
import { removeTusUploadsAfterErasure } from '../profile/profile.service.ts';
import type { ErasureRequestView } from '#contracts/erasure.ts';
import { anonymiseUserRow, eraseOwnRows, LEGACY_ERASED_SQL, lockErasureRequest, resolveErasureRequest } from './erasure.repo.ts';
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
      + 'each document was verified or rejected) and of its payment (amount, method, reference and status), without your name or details. '
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

/**
 * The users of the database in use (the "source" of `npm run restore --erasures-from`), one entry per users row: its
 * id, its created_at as ISO 8601 UTC with microseconds (anonymiseUserRow keeps created_at, so an erased row still
 * names the account it was), and whether it is erased: users.erased_at set, or LEGACY_ERASED_SQL (an erasure by a
 * release before migration 0029). Never the address alone: anyone could register erased-<id>@erased.invalid before
 * the address rule refused .invalid (security review HIGH).
 */
export interface ErasureLedger { users: Array<{ id: number; createdAt: string; erased: boolean }> }

/** created_at as ISO 8601 UTC with microseconds, the same text on PGlite and PostgreSQL whatever the session's zone. */
const CREATED_AT_SQL = `to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Whether a users row is erased, in SQL: erased_at, or an erasure by an older release (LEGACY_ERASED_SQL). */
const ERASED_SQL = `(erased_at is not null or ${LEGACY_ERASED_SQL})`;

/**
 * Reads the ErasureLedger of a database through `query` (users.id, created_at, erased_at, e-mail, password hash and
 * name). The source is read as it is, not migrated: one not yet at migration 0029 (no erased_at) is read by
 * LEGACY_ERASED_SQL alone.
 */
export async function readErasureLedger(query: (sql: string) => Promise<{ rows: Array<Record<string, unknown>> }>): Promise<ErasureLedger> {
  const { rows: [column] } = await query(`select count(*)::int as n from information_schema.columns where table_schema = current_schema() and table_name = 'users' and column_name = 'erased_at'`);
  const erased = Number(column?.n) > 0 ? ERASED_SQL : LEGACY_ERASED_SQL;
  const { rows } = await query(`select id, ${CREATED_AT_SQL} as created_at, ${erased} as erased from users order by id`);
  return { users: rows.map((r) => ({ id: Number(r.id), createdAt: String(r.created_at), erased: r.erased === true || r.erased === 't' })) };
}

/** One account of the restored copy that reapplyErasures acts on (or skips): id and created_at as in the ledger. */
export interface ErasureTarget { id: number; createdAt: string }

/** What reapplyErasures did: the accounts erased and deleted, and those skipped because their id was given to another account in the source. */
export interface ReappliedErasures { erased: ErasureTarget[]; deleted: ErasureTarget[]; reusedIds: ErasureTarget[] }

/**
 * The largest share of the ids both databases hold that may name different accounts (created_at differs) before the
 * source is taken for another database (staging, another campus) rather than this one with a few ids handed out again
 * after an earlier restore (the id sequence goes back with the data). Another database differs on nearly every id.
 */
const MAX_REUSED_SHARE = 0.1;

/** reapplyErasures refused the ledger, before changing anything: it is not from this copy's database (message says why). */
export class WrongErasureSource extends Error {}

/**
 * Carries out again, on a restored copy `db` (and its documents in `store`), what the database in use, described by
 * `ledger`, has done since the backup (privacy audit F2: a backup taken before an erasure brought the person back).
 * An account is the same in both only when its id AND created_at match (ids are reused after a restore, and another
 * database has the same small ids):
 * - each account erased there and not here is erased here (erasePerson, no mail sent; an open request becomes done);
 * - each account here whose id the source no longer has, below the highest id that matches in both (newer accounts of
 *   the copy are not the source's to judge), was deleted from its profile page and is deleted here with its documents.
 * Ids that both hold with a different created_at are left alone and listed as `reusedIds`.
 * Everything is checked before anything is written; rejects with WrongErasureSource, nothing changed, when more than
 * MAX_REUSED_SHARE of the shared ids name different accounts, or when an account to delete has applications or is an
 * admin (the profile page deletes neither: the source is not this database's successor). `onPlan` is given the
 * accounts to erase and delete (and the reused ids) once the checks pass, before the first write. Resolves to the accounts
 * erased, deleted and skipped; rejects on database or store errors (what was done so far stays done; running it
 * again skips it).
 */
export async function reapplyErasures(db: Db, store: DocumentStore, ledger: ErasureLedger, onPlan?: (plan: ReappliedErasures) => void): Promise<ReappliedErasures> {
  const there = new Map(ledger.users.map((u) => [u.id, u]));
  const here = ((await db.execute(sql.raw(`select id, ${CREATED_AT_SQL} as created_at, ${ERASED_SQL} as erased, role, (select count(*)::int from applications a where a.user_id = users.id) as applications from users order by id`))) as any).rows
    .map((r: any) => ({ id: Number(r.id), createdAt: String(r.created_at), erased: r.erased === true || r.erased === 't', role: String(r.role), applications: Number(r.applications) })) as Array<ErasureTarget & { erased: boolean; role: string; applications: number }>;
  const shared = here.filter((u) => there.has(u.id));
  const reused = shared.filter((u) => there.get(u.id)!.createdAt !== u.createdAt);
  if (reused.length > shared.length * MAX_REUSED_SHARE) {
    throw new WrongErasureSource(`--erasures-from names another database: ${reused.length} of the ${shared.length} user ids both hold belong to accounts created at other times (e.g. user ${reused[0]!.id}: ${reused[0]!.createdAt} here, ${there.get(reused[0]!.id)!.createdAt} there). Nothing was erased or deleted. Give the DATA_DIR or postgres:// URL of the database this backup was taken from, as it is now.`);
  }
  const highestMatched = shared.filter((u) => there.get(u.id)!.createdAt === u.createdAt).reduce((a, u) => Math.max(a, u.id), 0);
  const toErase = here.filter((u) => there.get(u.id)?.createdAt === u.createdAt && there.get(u.id)!.erased && !u.erased);
  const toDelete = here.filter((u) => !there.has(u.id) && u.id < highestMatched);
  const undeletable = toDelete.filter((u) => u.applications > 0 || u.role === 'admin');
  if (undeletable.length) {
    const u = undeletable[0]!;
    throw new WrongErasureSource(`--erasures-from lacks user ${u.id} (created ${u.createdAt}), who has ${u.role === 'admin' ? 'an admin account' : `${u.applications} application(s)`} here: "Delete my account" never deletes such an account, so that database is not the one this backup was taken from (${undeletable.length} such account(s)). Nothing was erased or deleted.`);
  }
  const pick = (list: ErasureTarget[]) => list.map(({ id, createdAt }) => ({ id, createdAt }));
  onPlan?.({ erased: pick(toErase), deleted: pick(toDelete), reusedIds: pick(reused) });
  const done: ReappliedErasures = { erased: [], deleted: [], reusedIds: pick(reused) };
  for (const { id, createdAt } of toErase) {
    const files = await db.transaction(async (tx) => {
      const user = await findUserById(tx, id);
      if (!user || user.erasedAt) return null;
      const { files } = await erasePerson(tx, user);
      await tx.update(erasureRequests).set({ status: 'done', resolvedAt: new Date() }).where(and(eq(erasureRequests.userId, id), eq(erasureRequests.status, 'open')));
      return files;
    });
    if (files) { await Promise.all(files.map((key) => store.delete(key))); done.erased.push({ id, createdAt }); }
  }
  for (const { id, createdAt } of toDelete) {
    const files = await db.transaction(async (tx) => {
      const user = await findUserById(tx, id);
      if (!user) return null;
      const files = await storedUploadNames(tx, id);
      await endAllSessions(tx, id);
      await deleteUserRow(tx, user);
      return files;
    });
    if (files) { await Promise.all(files.map((key) => store.delete(key))); done.deleted.push({ id, createdAt }); }
  }
  return done;
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
