/**
 * The assessment form's preferred slot rule (assessment.ts preferredSlotProblem), as the browser form and the API
 * apply it through AssessmentBookingSchema: a slot today in South Africa whose end has passed is refused on
 * preferredTime. The clock is fixed: passed to the rule, or faked for the schema (which reads the real clock).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AssessmentBookingSchema, SLOT_PASSED_MESSAGE, preferredSlotProblem } from './assessment.ts';

const PASSED = 'This time has already passed today. Please choose a later time or another day.';
/** 'HH:MM' South African time on Wednesday 25 November 2026. */
const sast = (hhmm: string) => new Date(`2026-11-25T${hhmm}:00+02:00`);
const messages = (r: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
const booking = (o: Record<string, unknown>) => ({
  firstName: 'Mpho', lastName: 'Mudau', email: 'mpho@example.com', phone: '0821234567', dateOfBirth: '2004-05-06',
  idNumber: '0405065123086', preferredCampus: 'biaba', courseInterest: 'information-technology', assessmentType: 'combined',
  educationLevel: 'grade-12', ...o,
});

describe('preferredSlotProblem (slot ends: morning 12:00, afternoon 16:00, evening 18:00 SAST)', () => {
  it('the message is the one the form and the API show', () => {
    expect(SLOT_PASSED_MESSAGE).toBe(PASSED);
  });

  it('at 19:30 SAST every slot today has passed; tomorrow is open', () => {
    for (const time of ['morning', 'afternoon', 'evening']) expect(preferredSlotProblem('2026-11-25', time, sast('19:30')), time).toBe(PASSED);
    for (const time of ['morning', 'afternoon', 'evening']) expect(preferredSlotProblem('2026-11-26', time, sast('19:30')), time).toBeNull();
  });

  it('a slot is open until its end, judged in South African time', () => {
    expect(preferredSlotProblem('2026-11-25', 'morning', sast('11:59'))).toBeNull();
    expect(preferredSlotProblem('2026-11-25', 'morning', sast('12:00'))).toBe(PASSED);
    expect(preferredSlotProblem('2026-11-25', 'afternoon', sast('15:59'))).toBeNull();
    expect(preferredSlotProblem('2026-11-25', 'afternoon', sast('16:00'))).toBe(PASSED);
    expect(preferredSlotProblem('2026-11-25', 'evening', sast('17:59'))).toBeNull();
    expect(preferredSlotProblem('2026-11-25', 'evening', sast('18:00'))).toBe(PASSED);
    // 23:30 UTC on the 24th is already 01:30 on the 25th in South Africa: the morning of the 25th is still open.
    expect(preferredSlotProblem('2026-11-25', 'morning', new Date('2026-11-24T23:30:00Z'))).toBeNull();
  });

  it('leaves unknown slots and missing values to the field checks', () => {
    expect(preferredSlotProblem('2026-11-25', '', sast('19:30'))).toBeNull();
    expect(preferredSlotProblem('2026-11-25', 'toString', sast('19:30'))).toBeNull();
    expect(preferredSlotProblem('', 'morning', sast('19:30'))).toBeNull();
  });
});

describe('AssessmentBookingSchema (browser form and API) with the clock at 19:30 SAST', () => {
  afterEach(() => { vi.useRealTimers(); });

  it("refuses today's morning and evening on preferredTime, and accepts tomorrow's morning", () => {
    vi.useFakeTimers({ toFake: ['Date'], now: sast('19:30') });
    expect(messages(AssessmentBookingSchema.safeParse(booking({ preferredDate: '2026-11-25', preferredTime: 'morning' })))).toEqual({ preferredTime: PASSED });
    expect(messages(AssessmentBookingSchema.safeParse(booking({ preferredDate: '2026-11-25', preferredTime: 'evening' })))).toEqual({ preferredTime: PASSED });
    expect(AssessmentBookingSchema.safeParse(booking({ preferredDate: '2026-11-26', preferredTime: 'morning' })).success).toBe(true);
  });

  it('shows the message with the other field messages on the first submit', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: sast('19:30') });
    const m = messages(AssessmentBookingSchema.safeParse(booking({ firstName: '', preferredDate: '2026-11-25', preferredTime: 'evening' })));
    expect(m).toEqual({ firstName: 'First name must be at least 2 characters', preferredTime: PASSED });
  });
});
