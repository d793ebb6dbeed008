/**
 * Step 1 'Personal Information' (spec §2, §5): the course (fixed when the URL names an open course, else a
 * select), name, contact, date of birth, nationality and address. Defaults come from the logged-in user.
 */
import type { ReactNode } from 'react';
import { useController } from 'react-hook-form';
import { COUNTRY_OPTIONS } from '#contracts/application-steps.ts';
import { Field } from '../../ui/Field.tsx';
import { levelLabel } from '../../../lib/format.ts';
import { describedBy, SelectField, TextField, useFieldError } from './fields.tsx';
import { domId, type ApplyForm, type CourseOption } from './form.ts';

/** 'Name' of a course id among `courses`, 'Course 7' while unknown, '' for none. */
export function courseLabel(courses: CourseOption[] | null, id: string): string {
  const c = courses?.find((x) => String(x.id) === id);
  return c ? (c.name || c.title) : id ? `Course ${id}` : '';
}

interface Props {
  /** The course id of the URL ('' without one). */
  urlCourse: string;
  /** Open courses; null while loading. */
  courses: CourseOption[] | null;
  coursesError: boolean;
  /**
   * Why the URL's course is not offered, once known: 'Course Not Found' (no such course) or the closed-course message
   * (ApplyWizard.tsx); until then a plain 'not open for applications'.
   */
  linkNotice?: ReactNode;
}

export function PersonalStep({ urlCourse, courses, coursesError, linkNotice }: Props) {
  const urlCourseKnown = Boolean(urlCourse && courses?.some((c) => String(c.id) === urlCourse));
  const urlCourseUnknown = Boolean(urlCourse && courses && !urlCourseKnown);
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {/* min-w-0 and break-words: at 200 % text on a 360 px phone a long course word wraps instead of widening the page. */}
      <div className="min-w-0 sm:col-span-2">
        {urlCourseKnown ? (
          <p className="break-words rounded-md bg-brand-50 p-3 text-sm dark:bg-slate-800" data-testid="selected-course">Applying for: <strong className="max-[20em]:hyphens-auto" lang="en">{courseLabel(courses, urlCourse)}</strong></p>
        ) : (
          <>
            {/* The select's description (its hint's id): a box, not a line of small print, since it says why the link's course is gone. */}
            {urlCourseUnknown && !coursesError && <p id={`${domId('courseId')}-hint`} role="status" data-testid="course-unavailable" className="mb-3 rounded-md bg-amber-100 p-3 text-sm text-amber-950 dark:bg-amber-900 dark:text-amber-50">
              {linkNotice ?? 'The course in your link is not open for applications. Please select a course.'}</p>}
            <CourseSelect courses={courses} hint={coursesError ? 'Error Loading Courses: Unable to load courses. Please try again later.' : undefined} withNotice={urlCourseUnknown && !coursesError} />
          </>
        )}
      </div>
      <TextField path="firstName" label="First name" autoComplete="given-name" />
      <TextField path="lastName" label="Last name" autoComplete="family-name" />
      <TextField path="email" label="Email" type="email" autoComplete="email" />
      <TextField path="phone" label="Phone" type="tel" autoComplete="tel" />
      {/* Typed as YYYY-MM-DD, the spec §5 format its message names, not a native date picker: Chromium's first date
           input starts ICU's locale data, 25-50 ms on a 2-core machine in the task that shows the form (issue #17,
           total blocking time), and a calendar that opens on today is slow for a birthday twenty years back. */}
      <TextField path="dateOfBirth" label="Date of birth" autoComplete="bday" hint="YYYY-MM-DD" spellCheck={false} maxLength={10} />
      <SelectField path="nationality" label="Nationality" options={COUNTRY_OPTIONS} placeholder="Select nationality" />
      <div className="sm:col-span-2"><TextField path="addressLine1" label="Address line 1" autoComplete="address-line1" /></div>
      <div className="sm:col-span-2"><TextField path="addressLine2" label="Address line 2 (optional)" autoComplete="address-line2" /></div>
      <TextField path="city" label="City" autoComplete="address-level2" />
      <TextField path="state" label="State/Province" autoComplete="address-level1" />
      <TextField path="postalCode" label="Postal code" autoComplete="postal-code" />
      <SelectField path="country" label="Country" options={COUNTRY_OPTIONS} placeholder="Select country" autoComplete="country" />
    </div>
  );
}

/** Controlled, because its options arrive after the value (an uncontrolled select would lose a restored choice). */
/** `withNotice`: the box above (PersonalStep) says why the link's course is not offered; it describes the select, as a hint would. */
function CourseSelect({ courses, hint, withNotice }: { courses: CourseOption[] | null; hint?: string; withNotice?: boolean }) {
  const { field } = useController<ApplyForm, 'courseId'>({ name: 'courseId' });
  const error = useFieldError('courseId');
  return (
    <Field id={domId('courseId')} label="Course" error={error} hint={hint}>
      <select className="input" id={domId('courseId')} name={field.name} ref={field.ref} value={field.value} onChange={(e) => field.onChange(e.target.value)} onBlur={field.onBlur}
        disabled={!courses} aria-invalid={error ? true : undefined} aria-describedby={describedBy('courseId', error, withNotice ? 'notice' : hint)}>
        <option value="">{courses ? 'Select a course' : 'Loading courses...'}</option>
        {courses?.map((c) => <option key={c.id} value={String(c.id)}>{c.name || c.title}{c.level ? ` (${levelLabel(c.level)})` : ''}</option>)}
      </select>
    </Field>
  );
}
