/**
 * course-link.ts: the wizard's closed-course words are the server's (courseClosedMessage, the 409 course_closed a
 * submission gets), so an applicant reads the same sentence on step 1 and on Submit; 'Course Not Found' is spec §8's.
 */
import { describe, expect, it } from 'vitest';
import { courseClosedMessage } from '../../../../api/src/features/applications/applications.service.ts';
import site from '../../../../content/site.json' with { type: 'json' };
import { COURSE_NOT_FOUND, courseClosedText } from './course-link.ts';

describe('course-link', () => {
  it("the closed-course text is the server's courseClosedMessage, with and without an office phone", () => {
    expect(courseClosedText(site.telephone)).toBe(courseClosedMessage(site.telephone));
    expect(courseClosedText('')).toBe(courseClosedMessage(''));
  });
  it("an unknown course is spec §8's 'Course Not Found' with its text", () => {
    expect(COURSE_NOT_FOUND).toContain('Course Not Found');
    expect(COURSE_NOT_FOUND).toContain('Sorry, the course you are looking for does not exist or there was an error loading the data.');
  });
});
