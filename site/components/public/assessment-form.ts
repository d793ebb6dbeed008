/**
 * The assessment-centre form's behaviour (AssessmentForm.astro; spec §2, §5 messages, §8 toasts), loaded on first
 * use (on-first-use.ts, issue #17): validated with AssessmentBookingSchema (the API's) → POST /api/assessment-centre.
 * Success: toast 'Assessment Application Submitted' and the form resets; failure: destructive toast 'Submission Failed'.
 * A slot today whose end has passed in South Africa gets 'This time has already passed today…' on Preferred Time
 * (preferredSlotProblem), here and from the API.
 */
import { enhanceForm } from './enhance-form.ts';
import { mountToastRegion } from './toast-region.ts';
import { toast } from '../../stores/toasts.ts';

/** Enhances `form` ([data-on-use="assessment"]). */
export function enhance(form: HTMLElement): void {
  mountToastRegion();
  enhanceForm(form as HTMLFormElement, {
    endpoint: '/api/assessment-centre',
    loadSchema: async () => (await import('#contracts/assessment.ts')).AssessmentBookingSchema,
    order: ['firstName', 'lastName', 'email', 'phone', 'dateOfBirth', 'idNumber', 'preferredCampus', 'courseInterest',
      'assessmentType', 'educationLevel', 'preferredDate', 'preferredTime', 'specialNeeds', 'additionalNotes'],
    pendingLabel: 'Submitting...',
    // 'This time has already passed today…' sits on preferredTime but depends on the date too.
    related: { preferredDate: ['preferredTime'], preferredTime: ['preferredDate'] },
    onSuccess: () => toast({ title: 'Assessment Application Submitted', description: 'Your assessment centre application has been successfully submitted. We will contact you soon to confirm your appointment.', variant: 'success' }),
    onFailure: (message) => toast({ title: 'Submission Failed', description: message || 'An error occurred while submitting your application.', variant: 'destructive' }),
  });
}
