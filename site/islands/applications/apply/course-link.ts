/**
 * What the wizard says when the course of its link (/apply/{id}) is not open for applications (ApplyWizard.tsx,
 * "no lost work" QA audit, 2026-11-28): spec §8's 'Course Not Found' wording for a course that does not exist, and
 * for one an admin deactivated the message the server gives a submission for it (409 course_closed,
 * api/src/features/applications/applications.service.ts courseClosedMessage; course-link.test.ts keeps them equal).
 */

/** A course that does not exist: spec §8 'Course Not Found' with its text, and what to do instead. */
export const COURSE_NOT_FOUND = 'Course Not Found. Sorry, the course you are looking for does not exist or there was an error loading the data. Please select a course.';

/** A deactivated course, with the admissions office's `telephone` (content/site.json; omitted when empty). */
export const courseClosedText = (telephone: string): string =>
  `Applications for this course have closed. Your answers are saved — choose another course or contact the admissions office${telephone ? ` on ${telephone}` : ''}.`;
