/**
 * Assessment-centre bookings (spec §2 Assessment Centre, §3, §5; issue #3). The schema already refused
 * past and weekend dates and today's ended slots; the service re-checks them against the server clock (the request may have
 * been validated just before midnight), stores the booking and queues, in the same transaction, a
 * confirmation to the applicant and a notice to the college office. A repeated idempotency key returns
 * the first booking and queues nothing (`created: false`). The confirmation holds only the reference and
 * labels from fixed option lists — no name, notes or other visitor text — and the notice with the visitor's
 * details goes only to the office address (ASVS 5.0 V1.3.11, V2.4.1; issue #12 finding 6).
 */
import type { Db } from '../../db/client.ts';
import type { AdminPageInfo, AdminPageQuery } from '#contracts/admin.ts';
import { readPage } from '../../http/paging.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { withFooter } from '../../mail/messages.ts';
import { badRequest } from '../../http/errors.ts';
import {
  ASSESSMENT_TYPE_OPTIONS, CAMPUS_OPTIONS, COURSE_INTEREST_OPTIONS, PREFERRED_TIME_OPTIONS, optionLabel, preferredDateProblem, preferredSlotProblem, todayInSouthAfrica,
  type AssessmentBooking,
} from '#contracts/assessment.ts';
import { bookingByKey, insertBooking, listBookings, type StoredBooking } from './assessment.repo.ts';

/**
 * Stores an assessment-centre booking (spec §5 form, §7) and queues, in the same transaction, the applicant's
 * confirmation (with the college footer linking `origin`, the site; '' leaves the link out) and the office's copy. A repeated idempotency key returns the first booking with created=false and
 * sends nothing again. Throws 400 {preferredDate} for a past or weekend date (South African calendar day of `now`),
 * and 400 {preferredTime} for a slot today whose end (12:00, 16:00, 18:00 SAST) `now` has passed (preferredSlotProblem).
 */
export async function submitBooking(db: Db, officeEmail: string, input: AssessmentBooking, now = new Date(), origin = ''): Promise<{ booking: StoredBooking; created: boolean }> {
  const problem = preferredDateProblem(input.preferredDate, todayInSouthAfrica(now));
  if (problem) throw badRequest(problem, { preferredDate: problem });
  const slot = preferredSlotProblem(input.preferredDate, input.preferredTime, now);
  if (slot) throw badRequest(slot, { preferredTime: slot });
  return db.transaction(async (tx) => {
    const stored = await insertBooking(tx, input);
    if (!stored) return { booking: (await bookingByKey(tx, input.idempotencyKey!))!, created: false };
    const when = `${longDate(input.preferredDate)}, ${optionLabel(PREFERRED_TIME_OPTIONS, input.preferredTime)}`;
    const campus = optionLabel(CAMPUS_OPTIONS, input.preferredCampus);
    const type = optionLabel(ASSESSMENT_TYPE_OPTIONS, input.assessmentType);
    await enqueueMail(tx, [
      {
        to: input.email,
        subject: 'Assessment Application Submitted',
        text: withFooter(`Hello,\n\nYour assessment centre application has been successfully submitted. We will contact you soon to confirm your appointment.\n\nReference: ASC-${stored.id}\nAssessment: ${type}\nCampus: ${campus}\nPreferred: ${when}\n\nPlease bring your ID document and latest results on the day.\n`, origin),
      },
      {
        to: officeEmail,
        subject: `New assessment booking ASC-${stored.id}: ${input.firstName} ${input.lastName}`,
        replyTo: input.email,
        text: `${input.firstName} ${input.lastName} (${input.email}, ${input.phone}) asked for a ${type} at ${campus} on ${when}.\nCourse interest: ${optionLabel(COURSE_INTEREST_OPTIONS, input.courseInterest)}\nSpecial needs: ${input.specialNeeds || 'none'}\nNotes: ${input.additionalNotes || 'none'}\n`,
      },
    ]);
    return { booking: stored, created: true };
  });
}

/** Admin read (issue #6; volume audit: no silent cap): page `q` of the bookings, newest first, with the total (a page past the last answers the last page). */
export async function bookingsForAdmin(db: Db, q: AdminPageQuery): Promise<{ bookings: StoredBooking[] } & AdminPageInfo> {
  const { result, info } = await readPage(q, (page) => listBookings(db, { limit: q.pageSize, offset: (page - 1) * q.pageSize }));
  return { bookings: result.bookings, ...info };
}

function longDate(iso: string): string {
  return new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}
