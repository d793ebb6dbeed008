/**
 * Contact messages (issue #3; DESIGN §4 "Contact and assessment forms are stored and acknowledged").
 * A message is stored and, in the same transaction, an e-mail to the college office (OFFICE_EMAIL) and an
 * acknowledgement to the visitor are queued. With an idempotency key a repeat submit returns the first
 * message and queues nothing (`created: false`). The acknowledgement carries no visitor-supplied text or links
 * and the office copy goes only to `officeEmail` (ASVS 5.0 V1.3.11, V2.4.1; issue #12 finding 6).
 */
import type { Db } from '../../db/client.ts';
import type { AdminPageInfo, AdminPageQuery } from '#contracts/admin.ts';
import { readPage } from '../../http/paging.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { withFooter } from '../../mail/messages.ts';
import type { ContactMessage, StoredContactMessage } from '#contracts/contact.ts';
import { contactMessageByKey, insertContactMessage, listContactMessages } from './contact.repo.ts';

/** The whole acknowledgement a visitor receives: fixed text, nothing taken from the form. */
export const CONTACT_ACKNOWLEDGEMENT = 'Hello,\n\nThank you for contacting us. We received your message and will reply within two working days (office hours Mon-Fri 8:00 AM - 5:00 PM).\n\nIf you did not write to us, you can ignore this e-mail.\n';

/**
 * Stores a contact message (spec §5 Contact form, §7) and queues, in the same transaction, the office's copy and the
 * fixed CONTACT_ACKNOWLEDGEMENT to the visitor (with the college footer linking `origin`). A repeated idempotency key returns the first message with created=false.
 */
export async function submitContactMessage(db: Db, officeEmail: string, input: ContactMessage, origin: string): Promise<{ message: StoredContactMessage; created: boolean }> {
  return db.transaction(async (tx) => {
    const stored = await insertContactMessage(tx, input);
    if (!stored) {
      const existing = await contactMessageByKey(tx, input.idempotencyKey!);
      return { message: existing!, created: false };
    }
    const who = `${input.firstName} ${input.lastName}`;
    await enqueueMail(tx, [
      {
        to: officeEmail,
        subject: `Website message from ${who}`,
        // Reply goes to the visitor, not back to our own sender address (mail audit).
        replyTo: input.email,
        text: `${who} sent a message through the website contact form.\n\nE-mail: ${input.email}\nPhone: ${input.phone || 'not given'}\n\n${input.message}\n`,
      },
      // The visitor typed this address and nobody has proven it is theirs: the acknowledgement is fixed text
      // only (no name, message or link from the form), so the form cannot mail chosen content to a stranger.
      { to: input.email, subject: 'We received your message', text: withFooter(CONTACT_ACKNOWLEDGEMENT, origin) },
    ]);
    return { message: stored, created: true };
  });
}

/** Admin read (issue #6; volume audit: no silent cap): page `q` of the messages, newest first, with the total (a page past the last answers the last page). */
export async function contactMessagesForAdmin(db: Db, q: AdminPageQuery): Promise<{ messages: StoredContactMessage[] } & AdminPageInfo> {
  const { result, info } = await readPage(q, (page) => listContactMessages(db, { limit: q.pageSize, offset: (page - 1) * q.pageSize }));
  return { messages: result.messages, ...info };
}
