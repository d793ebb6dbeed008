/**
 * The words of every mail the college sends to an applicant, in one place (mail audit): services say what happened
 * and this module says it. Each applicant mail is a greeting, the message, and the shared footer naming the college
 * (name, phone, office hours and site address from content/site.json). Subjects name the application and what
 * changed ('APP-12: Payment Pending'), so a mailbox of them can be told apart; status labels are spec §4's
 * (statusLabel), the payment and documents sentences are the My Applications alerts of spec §2.
 * Texts are plain; nothing an applicant typed is put in a subject (names are greeted only when they pass the name
 * rule, person-name.ts).
 */
import { statusLabel } from '#contracts/common.ts';
import { PERSON_NAME_PATTERN } from '#contracts/person-name.ts';
import { DOCUMENT_SLOTS } from '#contracts/application-steps.ts';
import { ACCEPTED_NEXT_STEP } from '#contracts/statuses.ts';
import type { MailMessage } from './outbox.ts';
import { SITE_CONTENT } from '../site-content.ts';

/** The college as content/site.json describes it: `name`, `telephone`, `officeHours` (may be ''), `email`. */
export interface CollegeInfo { name: string; telephone: string; officeHours: string; email: string }

/** content/site.json's college, read once at start. */
export const COLLEGE: CollegeInfo = SITE_CONTENT;

/** The sender when MAIL_FROM is not set: '"Vhembe Skills College Admissions" <admissions@college.example>'. */
export function defaultMailFrom(college: CollegeInfo = COLLEGE): string {
  return `"${`${college.name} Admissions`.replace(/["\\\r\n]/g, '')}" <admissions@college.example>`;
}

/** 'Dear Thandi,' for a name that passes the name rule (person-name.ts); 'Dear applicant,' for anything else (an older row). */
export function greeting(firstName?: string | null): string {
  const n = (firstName ?? '').trim();
  return n.length >= 2 && n.length <= 80 && PERSON_NAME_PATTERN.test(n) ? `Dear ${n},` : 'Dear applicant,';
}

/** 'Phone 015 962 0000 (Mon-Fri 8:00 AM - 5:00 PM)', or '' without a phone number. */
function phoneLine(college: CollegeInfo): string {
  if (!college.telephone) return '';
  return college.officeHours ? `Phone ${college.telephone} (${college.officeHours})` : `Phone ${college.telephone}`;
}

/**
 * The footer of every applicant mail: a '-- ' signature line, then '{college} Admissions', the phone line and `origin`
 * (the site, 'https://college.example'). Ends with a newline.
 */
export function mailFooter(origin: string, college: CollegeInfo = COLLEGE): string {
  return ['-- ', `${college.name} Admissions`, phoneLine(college), origin].filter(Boolean).join('\n') + '\n';
}

/** `text` (a whole mail body, greeting included) with the footer (mailFooter) after a blank line. */
export function withFooter(text: string, origin: string): string {
  return `${text.trimEnd()}\n\n${mailFooter(origin)}`;
}

/**
 * The body of one bulk announcement mail to one student: greeting, title, content, the usual footer, then the opt-out
 * lines (POPIA s69, CPA s11: every direct-marketing mail names the sender's address and a free way to object):
 * 'To stop announcement e-mails, open <unsubscribeUrl>' and '{college}, {postal address}, phone {telephone}'.
 */
export function announcementMailText(firstName: string, title: string, content: string, origin: string, unsubscribeUrl: string, college: CollegeInfo & { postalAddress?: string } = SITE_CONTENT): string {
  const sender = [college.name, college.postalAddress, college.telephone ? `phone ${college.telephone}` : ''].filter(Boolean).join(', ');
  return `${withFooter(`${greeting(firstName)}\n\n${title}\n\n${content}\n`, origin)}\n`
    + 'You receive this because you have a student account with us. To stop announcement e-mails (mail about your own applications still comes), open:\n'
    + `${unsubscribeUrl}\n${sender}\n`;
}

/**
 * One applicant mail: greeting (`firstName`, or 'Hello,' when null: mail to an address nobody has proven), `body`
 * (paragraphs separated by blank lines, no greeting or footer), the footer with `origin`.
 */
export function applicantMail(to: string, subject: string, body: string, origin: string, firstName: string | null): MailMessage {
  const hello = firstName === null ? 'Hello,' : greeting(firstName);
  return { to, subject, text: `${hello}\n\n${body.trim()}\n\n${mailFooter(origin)}` };
}

/**
 * The acknowledgement of erasure request `requestId` by `user` (who has applications, so an admin reviews it first):
 * received, what happens next, that they can still sign in.
 */
export function erasureRequestedMail(user: { email: string; firstName: string }, requestId: number, origin: string): MailMessage {
  return applicantMail(user.email, 'We received your request to delete your account',
    `We received your request to delete your account and personal data (erasure request ${requestId}).\n\n`
    + 'Because you have applications on record, an admin reviews the request first. We will e-mail you when your data has been erased, '
    + 'or if we cannot erase it and why. Until then your account stays open and you can still sign in.', origin, user.firstName);
}

/** What the applicant is told about one event: the portal notification's line, the mail's subject and body (no greeting, link or footer). */
export interface ApplicantNotice { notification: string; subject: string; body: string }

/** A document slot's label (spec §3: transcripts → 'Qualifications Documents'); the key itself if unknown. */
export const documentLabel = (slot: string): string => DOCUMENT_SLOTS.find((s) => s.key === slot)?.label ?? slot;
/** Labels that name several documents take plural verbs ('Qualifications Documents were'). */
const isPlural = (label: string): boolean => /s$/i.test(label);
/** `text` ending with a full stop (or its own ! or ?). */
const sentence = (text: string): string => { const t = text.trim(); return /[.!?]$/.test(t) ? t : `${t}.`; };
/** 'A', 'A and B', 'A, B and C'. */
const listOf = (items: string[]): string => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** Receipt of a submitted application `id` for the course titled `courseTitle`. */
export function applicationReceivedNotice(id: number, courseTitle: string): ApplicantNotice {
  const line = `Your application for ${courseTitle} (APP-${id}) has been received and is under review.`;
  return { notification: line, subject: `APP-${id}: application received`, body: `${line}\n\nWe will e-mail you when its status changes.` };
}

/** Spec §2 My Applications alert of documents_required. */
export const DOCUMENTS_REQUIRED_ALERT = 'Additional documents are required for your application. Please upload the required documents.';
/** Spec §2 My Applications alert of payment_pending, for `paymentAmount` ('50.00'). */
export const paymentRequiredAlert = (paymentAmount: string): string => `Payment of R${paymentAmount} is required to complete your application.`;

/**
 * Application `id` is now `status` (spec §4). The mail says what to do next: documents_required names the documents
 * (`facts.documentsNeeded`, labels) or gives the spec's alert; payment_pending the spec's payment sentence with
 * `facts.paymentAmount`; rejected a line to contact the office (the admin's notes are internal and never included).
 */
export function statusChangedNotice(id: number, status: string, facts: { paymentAmount?: string | null; documentsNeeded?: string[] } = {}): ApplicantNotice {
  const label = statusLabel(status);
  const line = `Your application APP-${id} is now: ${label}.`;
  const contact = COLLEGE.telephone
    ? `call the admissions office on ${COLLEGE.telephone}${COLLEGE.officeHours ? ` (${COLLEGE.officeHours})` : ''}${COLLEGE.email ? ` or write to ${COLLEGE.email}` : ''}`
    : 'contact the admissions office';
  const docs = facts.documentsNeeded ?? [];
  const next: Record<string, string> = {
    pending: 'We will review it and e-mail you when its status changes.',
    under_review: 'The admissions office is reviewing it. You do not need to do anything now; we will e-mail you when its status changes.',
    documents_required: docs.length
      ? `Additional documents are required for your application. Please upload your ${listOf(docs)} on your application page.`
      : DOCUMENTS_REQUIRED_ALERT,
    payment_pending: facts.paymentAmount ? paymentRequiredAlert(facts.paymentAmount) : 'A payment is required to complete your application.',
    accepted: ACCEPTED_NEXT_STEP,
    rejected: `We are sorry: your application was not successful. If you would like to talk about this decision, ${contact}.`,
  };
  return { notification: line, subject: `APP-${id}: ${label}`, body: next[status] ? `${line}\n\n${next[status]}` : line };
}

/** The document in `slot` of application `id` was rejected for `reason` (the admin's words, shown to the applicant). */
export function documentRejectedNotice(id: number, slot: string, reason: string): ApplicantNotice {
  const label = documentLabel(slot);
  const plural = isPlural(label);
  const line = `Your ${label} for APP-${id} ${plural ? 'were' : 'was'} not accepted: ${sentence(reason)} Please upload ${plural ? 'new ones' : 'a new one'} on your application page.`;
  return { notification: line, subject: `APP-${id}: ${label} ${plural ? 'need' : 'needs'} replacing`, body: line };
}

/** The applicant replaced the rejected document in `slot` of application `id`: a receipt. */
export function documentReplacedNotice(id: number, slot: string): ApplicantNotice {
  const label = documentLabel(slot);
  const line = `We received your new ${label} for APP-${id}. The admissions office will check ${isPlural(label) ? 'them' : 'it'}.`;
  return { notification: line, subject: `APP-${id}: new ${label} received`, body: line };
}

/** The applicant uploaded the documents application `id` was waiting for; it is under review again. */
export function documentsReceivedNotice(id: number): ApplicantNotice {
  const line = `We received your documents for APP-${id}. Your application is under review again.`;
  return { notification: line, subject: `APP-${id}: documents received`, body: line };
}
