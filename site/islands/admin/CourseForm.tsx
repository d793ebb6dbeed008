/**
 * Course create/edit form (spec §5 Course form): title, description, level (default certificate), duration,
 * department, tuitionFee, startDate required; isActive default true. Validated with the API's CourseInputSchema;
 * focus moves to the first invalid field; the submit button is disabled while saving. The price is a text field
 * (inputMode decimal) so an amount typed the South African way ('1 250,50', 'R8 000') reaches the validator; blank = no price.
 * Toasts (spec §8): 'Course created' / 'Course updated'; 'Failed to create course' / 'Failed to update course'
 * with the server's message or 'An error occurred'; a save that did not reach the server says so and stays until
 * closed (saveFailureToast, save-failure.ts), the form keeping what was typed.
 * An edit sends the `updatedAt` it was opened on as `expectedUpdatedAt`. When someone else saved the course since
 * (409), the form keeps what was typed and shows the server's message with a Reload button; Reload loads the
 * course as it is now, keeps the fields this admin changed and takes the saved values for the rest (audit C item 1,
 * no lost work), lists the kept fields whose saved value differs (EditConflict.tsx KeptChanges), and the next save
 * is checked against that version (the version state: useEditVersion, use-edit-version.ts, shared with AnnouncementForm).
 * No lost work ("no lost work" audit, as AnnouncementForm.tsx): after a save the form takes the saved version as its
 * base and keeps every field the admin changed while the save was in flight; with such newer changes it stays open
 * and says they are not saved yet, instead of closing (and clears the Reloaded box of an earlier 409, whose "Saved
 * version" is no longer saved). A new course saved that way turns the form into the edit of that course
 * (`onSavedOpen`), so saving again updates it rather than creating a second one.
 * Department is a choice of the listed departments (DEPARTMENTS, spec §2), never free text: a typo once created a new
 * public department (admin audit). A course saved earlier with another department shows it, marked, until changed.
 */
import { useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { CourseInputSchema, type Course, type CourseInput } from '#contracts/courses.ts';
import { COURSE_LEVELS, DEPARTMENTS } from '#contracts/statuses.ts';
import { api, ApiError } from '../../lib/api-client.ts';
import { saveApi } from '../ui/save-api.ts';
import { toast } from '../../stores/toasts.ts';
import { Field, fieldProps } from '../ui/Field.tsx';
import { usePanelUnsaved } from './Panel.tsx';
import { EditConflict, KeptChanges, withKeptNote } from './EditConflict.tsx';
import { useEditVersion } from './use-edit-version.ts';
import { APS_MAX, REQUIRABLE_SUBJECTS } from '#contracts/nsc.ts';
import { $adminCourses } from './admin-stores.ts';
import { BusyButton, unlessBusy } from '../ui/BusyButton.tsx';
import { saveFailureToast } from './save-failure.ts';

const EMPTY: CourseInput = { title: '', description: '', level: 'certificate', duration: '' as unknown as number, department: '', tuitionFee: '', startDate: '', price: '', requirements: '', imageUrl: '', isActive: true, minimumAps: 0, subjectRequirements: [] };

const formValues = (course: Course): CourseInput => ({
  title: course.title, description: course.description, level: course.level, duration: course.duration ?? ('' as unknown as number),
  department: course.department, tuitionFee: course.tuitionFee, startDate: course.startDate ?? '', price: course.price ?? '',
  requirements: course.requirements ?? '', imageUrl: course.imageUrl ?? '', isActive: course.isActive,
  minimumAps: course.minimumAps ?? 0, subjectRequirements: course.subjectRequirements ?? [],
});

/** The form's labels, for the fields Reload kept (KeptChanges). */
const LABELS: Record<keyof CourseInput, string> = {
  title: 'Title', description: 'Description', level: 'Level', duration: 'Duration (months)', department: 'Department', tuitionFee: 'Tuition fee',
  startDate: 'Start date', price: 'Price in rand', requirements: 'Entry requirements', imageUrl: 'Image URL', isActive: 'Active',
  minimumAps: 'Minimum APS', subjectRequirements: 'Minimum NSC subject results',
};

/**
 * `course`: the course to edit, null for a new one. `onSaved(c)`: `c` saved with nothing newer in the form: close it
 * and reload the table. `onCancel`: closed unsaved. `onSavedOpen(c)`: `c` was saved while the form stays open with
 * newer changes (reload the table; a new course is now edited as `c`).
 */
export default function CourseForm({ course, onSaved, onCancel, onSavedOpen }: { course: Course | null; onSaved: (c: Course) => void; onCancel: () => void; onSavedOpen: (c: Course) => void }) {
  const { register, handleSubmit, setError, reset, setValue, getValues, control, formState: { errors, isSubmitting, isDirty, dirtyFields } } = useForm<CourseInput>({
    resolver: zodResolver(CourseInputSchema) as any,
    defaultValues: course ? formValues(course) : EMPTY,
    shouldFocusError: true,
  });
  // The course the form edits (`course`, or the one this form created), the version it is based on, a 409's notice,
  // Reload and the KeptChanges box (use-edit-version.ts).
  const { current, editing, version, savedHere, conflict, reloading, keptBox, clearConflict, conflicted, snapshot, changedFrom, rebase, reload } = useEditVersion({
    record: course, form: { getValues, reset, setValue }, dirtyFields, formValues, labels: LABELS, conflictKey: 'course',
    fetchLatest: async (c) => (await api<{ course: Course }>(`/api/courses/${c.id}`)).course,
    revalidate: () => $adminCourses.revalidate(),
    reloadError: { title: 'Failed to reload course', unexpected: 'An error occurred' },
  });
  const close = usePanelUnsaved(isDirty, onCancel);
  const onSubmit = handleSubmit(async (values) => {
    // What the form held when it was submitted: anything typed from here on is newer than this save.
    const sent = snapshot();
    const wasEditing = editing;
    clearConflict();
    try {
      const r = await saveApi<{ course: Course }>(current ? `/api/courses/${current.id}` : '/api/courses', { method: current ? 'PUT' : 'POST', json: current ? { ...values, expectedUpdatedAt: version } : values });
      toast({ title: wasEditing ? 'Course updated' : 'Course created', description: `${r.course.title} will be on the public site in about a minute, once the site is rebuilt (the dashboard shows when).`, variant: 'success' });
      if (changedFrom(sent).length === 0) onSaved(r.course);
      else { rebase(r.course, sent); onSavedOpen(r.course); }
    } catch (e) {
      if (conflicted(e)) return;
      if (e instanceof ApiError) for (const [k, m] of Object.entries(e.fields)) setError(k as keyof CourseInput, { message: m }, { shouldFocus: true });
      toast(saveFailureToast(editing ? 'Failed to update course' : 'Failed to create course', e, 'An error occurred'));
    }
  });
  const err = (k: keyof CourseInput) => errors[k]?.message as string | undefined;
  const reqs = useFieldArray({ control, name: 'subjectRequirements' as never });
  const reqErr = (i: number, k: 'subject' | 'minimumPercent') => (errors.subjectRequirements as any)?.[i]?.[k]?.message as string | undefined;
  return (
    <form noValidate onSubmit={unlessBusy(isSubmitting, onSubmit)} className="grid gap-4 sm:grid-cols-2" aria-label={editing ? 'Edit course' : 'New course'}>
      <div className="sm:col-span-2"><Field id="c-title" label="Title" error={err('title')}><input className="input" {...withKeptNote(fieldProps('c-title', err('title')), keptBox.kept, 'title', 'c')} {...register('title')} /></Field></div>
      <div className="sm:col-span-2"><Field id="c-description" label="Description" error={err('description')}><textarea rows={4} className="input" {...withKeptNote(fieldProps('c-description', err('description')), keptBox.kept, 'description', 'c')} {...register('description')} /></Field></div>
      <Field id="c-level" label="Level" error={err('level')}>
        <select className="input" {...withKeptNote(fieldProps('c-level', err('level')), keptBox.kept, 'level', 'c')} {...register('level')}>
          {COURSE_LEVELS.map((l) => <option key={l} value={l}>{l.charAt(0).toUpperCase() + l.slice(1)}</option>)}
        </select>
      </Field>
      <Field id="c-duration" label="Duration (months)" error={err('duration')}><input type="number" min={1} max={120} inputMode="numeric" className="input" {...withKeptNote(fieldProps('c-duration', err('duration')), keptBox.kept, 'duration', 'c')} {...register('duration')} /></Field>
      <Field id="c-department" label="Department" error={err('department')}>
        <select className="input" {...withKeptNote(fieldProps('c-department', err('department')), keptBox.kept, 'department', 'c')} {...register('department')}>
          <option value="">Choose a department</option>
          {DEPARTMENTS.map((d) => <option key={d} value={d}>{d}</option>)}
          {current && !(DEPARTMENTS as readonly string[]).includes(current.department) && <option value={current.department}>{current.department} (not a listed department: choose another)</option>}
        </select>
      </Field>
      <Field id="c-tuition" label="Tuition fee" error={err('tuitionFee')} hint="As shown to visitors, e.g. R6,500"><input className="input" {...withKeptNote(fieldProps('c-tuition', err('tuitionFee')), keptBox.kept, 'tuitionFee', 'c')} {...register('tuitionFee')} /></Field>
      <Field id="c-start" label="Start date" error={err('startDate')} hint="e.g. February 2027"><input className="input" {...withKeptNote(fieldProps('c-start', err('startDate')), keptBox.kept, 'startDate', 'c')} {...register('startDate')} /></Field>
      <Field id="c-price" label="Price in rand (optional)" error={err('price')}><input inputMode="decimal" autoComplete="off" placeholder="e.g. 1250 or 1250,50" className="input" {...withKeptNote(fieldProps('c-price', err('price')), keptBox.kept, 'price', 'c')} {...register('price')} /></Field>
      <div className="sm:col-span-2"><Field id="c-req" label="Entry requirements (optional)" error={err('requirements')}><textarea rows={2} className="input" {...withKeptNote(fieldProps('c-req', err('requirements')), keptBox.kept, 'requirements', 'c')} {...register('requirements')} /></Field></div>
      <Field id="c-aps" label="Minimum APS" error={err('minimumAps')} hint={`0–${APS_MAX}; 0 means no APS requirement`}><input type="number" min={0} max={APS_MAX} inputMode="numeric" className="input" {...withKeptNote(fieldProps('c-aps', err('minimumAps')), keptBox.kept, 'minimumAps', 'c')} {...register('minimumAps')} /></Field>
      {/* min-w-0: a fieldset is at least as wide as its content (min-inline-size: min-content), which made the form wider than a phone's dialog. */}
      <fieldset className="min-w-0 sm:col-span-2">
        <legend className="label">Minimum NSC subject results</legend>
        {err('subjectRequirements') && <p className="field-error" role="alert">{err('subjectRequirements')}</p>}
        <ul className="space-y-2">
          {/* One row where the subject keeps 16rem (a wide dialog); narrower (a phone, or larger text), the subject takes its own
              line and Minimum % and Remove go below it (phone audit at 360 px: a 1fr column beside 7rem and Remove left the
              select 90 px, "Englis", at normal text; at 200 % text the row was 605 px wide, Remove off-screen). */}
          {reqs.fields.map((f, i) => (
            <li key={f.id} className="flex flex-wrap items-end gap-2" data-testid="subject-requirement">
              <div className="min-w-0 grow basis-64">
                <Field id={`c-req-subject-${i}`} label={`Required subject ${i + 1}`} error={reqErr(i, 'subject')}>
                  <select className="input" {...fieldProps(`c-req-subject-${i}`, reqErr(i, 'subject'))} {...register(`subjectRequirements.${i}.subject` as const)}>
                    <option value="">Select a subject…</option>
                    {REQUIRABLE_SUBJECTS.map((s) => <option key={s} value={s}>{s}</option>)}
                  </select>
                </Field>
              </div>
              <div className="w-28 max-w-full">
                <Field id={`c-req-percent-${i}`} label="Minimum %" error={reqErr(i, 'minimumPercent')}>
                  <input type="number" min={0} max={100} inputMode="numeric" className="input" {...fieldProps(`c-req-percent-${i}`, reqErr(i, 'minimumPercent'))} {...register(`subjectRequirements.${i}.minimumPercent` as const)} />
                </Field>
              </div>
              <button type="button" className="btn-secondary" onClick={() => reqs.remove(i)}>Remove<span className="sr-only"> required subject {i + 1}</span></button>
            </li>
          ))}
        </ul>
        <button type="button" className="btn-secondary mt-2" onClick={() => reqs.append({ subject: '', minimumPercent: 50 } as never)} disabled={reqs.fields.length >= 10}>Add subject requirement</button>
      </fieldset>
      <div className="sm:col-span-2"><Field id="c-image" label="Image URL (optional)" error={err('imageUrl')} hint="A link to a JPEG, PNG or WebP picture. Publishing keeps a copy on this site; a link that does not open is left out."><input type="url" className="input" {...withKeptNote(fieldProps('c-image', err('imageUrl')), keptBox.kept, 'imageUrl', 'c')} {...register('imageUrl')} /></Field></div>
      {/* Box and words in one label, a 44 px tall target; shrink-0 keeps the box square at 360 px (was squeezed to 13×16). */}
      <label htmlFor="c-active" className="flex w-fit max-w-full min-h-11 items-center gap-3 text-sm sm:col-span-2"><input id="c-active" type="checkbox" className="h-5 w-5 shrink-0" {...withKeptNote({}, keptBox.kept, 'isActive', 'c')} {...register('isActive')} /><span className="min-w-0">Active (shown on the public site and open for applications)</span></label>
      {conflict && <EditConflict message={conflict} reloading={reloading} onReload={() => void reload()} className="sm:col-span-2" />}
      <KeptChanges fields={keptBox.kept} reloaded={keptBox.reloaded} prefix="c" onUseSaved={keptBox.takeSaved} className="sm:col-span-2" />
      {/* Always in the page, so the text is announced when it appears (WCAG 4.1.3). */}
      <p role="status" className={savedHere && isDirty ? 'card border-sky-400 p-3 text-sm sm:col-span-2 dark:border-sky-600' : 'sr-only'} data-testid={savedHere && isDirty ? 'newer-unsaved' : undefined}>
        {savedHere && isDirty ? 'Saved. Your changes since are not saved yet: Save changes to keep them.' : ''}
      </p>
      {/* flex-wrap: with large text Cancel goes below Create course instead of past the dialog's edge. */}
      <div className="flex flex-wrap gap-2 sm:col-span-2">
        <BusyButton type="submit" className="btn-primary" busy={isSubmitting} disabled={reloading}>{isSubmitting ? 'Saving…' : editing ? 'Save changes' : 'Create course'}</BusyButton>
        <button type="button" className="btn-secondary" onClick={() => void close()} disabled={isSubmitting}>Cancel</button>
      </div>
    </form>
  );
}
