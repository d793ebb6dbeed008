/**
 * Admin courses (spec §2 Courses; issue #6): every course (inactive included), create/edit in a dialog
 * (CourseForm), activate/deactivate; an activation that did not reach the server says so until closed (save-failure.ts). Inactive courses leave the public site when it is next rebuilt (saving a course starts that; about a minute).
 * A form saved while the admin went on typing stays open on the saved course (a new one becomes its edit).
 * The rows are cards below 1024 px and wherever the table's region is narrower than 44rem, as with text at 200 %
 * (table-cards.ts): no sideways scroll, Edit and Deactivate in view. In a 44–50rem region (a 1024–1080 px window) the
 * table is snug, tighter cells and the buttons stacked, so it fits there too (table-cards.ts).
 */
import { lazy, Suspense, useState } from 'react';
import { useStore } from '@nanostores/react';
import type { Course } from '#contracts/courses.ts';
import { saveApi } from '../ui/save-api.ts';
import { toast } from '../../stores/toasts.ts';
import { formatDuration, formatPrice, levelLabel } from '../../lib/format.ts';
import { useAdminAccess } from './use-admin.ts';
import { $adminCourses } from './admin-stores.ts';
import Panel from './Panel.tsx';
import { useConfirm } from './ConfirmDialog.tsx';
import { AccessGate, Empty } from './admin-ui.tsx';
import { ErrorState } from '../ui/ErrorState.tsx';
import { SkeletonRows } from '../ui/SkeletonRows.tsx';
import { TABLE_CARDS } from './table-cards.ts';
import { BusyButton } from '../ui/BusyButton.tsx';
import { saveFailureToast } from './save-failure.ts';

const CourseForm = lazy(() => import('./CourseForm.tsx'));
// A table cell's side padding: snug in a 44–50rem region (table-cards.ts).
const SNUG = TABLE_CARDS.snugCell;

/** Every course for admins (page /admin/courses and the dashboard tab; `heading` false inside the tab). */
export default function CoursesManager({ heading = true }: { heading?: boolean }) {
  const access = useAdminAccess();
  return <AccessGate access={access}><Manager heading={heading} /></AccessGate>;
}

function Manager({ heading }: { heading: boolean }) {
  const list = useStore($adminCourses);
  const courses = list.data?.courses;
  const error = list.error ? 'Unable to load courses. Please try again later.' : null;
  const [editing, setEditing] = useState<Course | 'new' | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const load = () => $adminCourses.revalidate();
  const [confirmDialog, ask] = useConfirm();
  const toggle = async (c: Course) => {
    if (c.isActive && !await ask({ title: `Deactivate ${c.title}?`, description: 'No one can apply for it until you activate it again, and it leaves the public site in about a minute, once the site is rebuilt.', action: 'Deactivate course', danger: true })) return;
    setBusy(c.id);
    try {
      await saveApi(`/api/courses/${c.id}/${c.isActive ? 'deactivate' : 'activate'}`, { method: 'POST' });
      toast({ title: 'Course updated', description: `${c.title} is now ${c.isActive ? 'inactive' : 'active'}.`, variant: 'success' });
      load();
    } catch (e) {
      toast(saveFailureToast('Failed to update course', e, 'An error occurred'));
    } finally { setBusy(null); }
  };
  return (
    <section>
      {confirmDialog}
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        {heading ? <h1 className="text-2xl font-bold">Courses</h1> : <h2 className="text-xl font-bold">Courses</h2>}
        <button type="button" className="btn-primary" onClick={() => setEditing('new')}>Add course</button>
      </div>
      {error ? <ErrorState title="Error Loading Courses" message={error} onRetry={load} />
        : !courses ? <SkeletonRows rows={6} label="Loading courses" />
        : courses.length === 0 ? <Empty>No courses found</Empty>
        : (
          <div className={`card overflow-x-auto ${TABLE_CARDS.region}`} tabIndex={0} role="region" aria-label="All courses">
            <table className={`w-full text-sm ${TABLE_CARDS.block}`}>
              <caption className="sr-only">All courses</caption>
              <thead className={`border-b border-slate-200 text-left dark:border-slate-700 ${TABLE_CARDS.visuallyHidden}`}>
                <tr><th scope="col" className={`px-3 py-2 ${SNUG}`}>Course</th><th scope="col" className={`px-3 py-2 ${SNUG}`}>Level</th><th scope="col" className={`px-3 py-2 ${SNUG}`}>Department</th>
                  <th scope="col" className={`px-3 py-2 ${SNUG}`}>Duration</th><th scope="col" className={`px-3 py-2 ${SNUG}`}>Fee</th><th scope="col" className={`px-3 py-2 ${SNUG}`}>Status</th><th scope="col" className={`px-3 py-2 ${SNUG}`}>Actions</th></tr>
              </thead>
              <tbody className={TABLE_CARDS.block}>
                {courses.map((c) => (
                  <tr key={c.id} className={`border-b border-slate-100 last:border-0 dark:border-slate-800 ${TABLE_CARDS.row}`} data-testid="course-row">
                    <td className={`px-3 py-2 font-medium [overflow-wrap:anywhere] ${SNUG} ${TABLE_CARDS.cell}`}><a className="underline" href={`/courses/${c.id}`}>{c.title}</a></td>
                    <td className={`px-3 py-2 ${SNUG} ${TABLE_CARDS.labelled}`} data-label="Level">{levelLabel(c.level)}</td>
                    <td className={`px-3 py-2 ${SNUG} ${TABLE_CARDS.labelled}`} data-label="Department">{c.department}</td>
                    <td className={`px-3 py-2 ${SNUG} ${TABLE_CARDS.labelled}`} data-label="Duration">{formatDuration(c.duration, 'list')}</td>
                    <td className={`px-3 py-2 ${SNUG} ${TABLE_CARDS.labelled}`} data-label="Fee">{formatPrice(c.price, c.tuitionFee)}</td>
                    <td className={`px-3 py-2 ${SNUG} ${TABLE_CARDS.labelled}`} data-label="Status">{c.isActive ? <span className="text-green-800 dark:text-green-300">Active</span> : <span className="muted">Inactive</span>}</td>
                    <td className={`px-3 py-2 ${SNUG} ${TABLE_CARDS.actions}`}><div className={`flex gap-1 ${TABLE_CARDS.actionsRow} ${TABLE_CARDS.snugActionsRow}`}>
                      <button type="button" className="btn-secondary px-2 py-1" onClick={() => setEditing(c)} aria-label={`Edit ${c.title}`}>Edit</button>
                      <BusyButton className="btn-secondary px-2 py-1" busy={busy === c.id} onClick={() => void toggle(c)} aria-label={`${c.isActive ? 'Deactivate' : 'Activate'} ${c.title}`}>{c.isActive ? 'Deactivate' : 'Activate'}</BusyButton>
                    </div></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      <Panel open={editing != null} onOpenChange={(o) => { if (!o) setEditing(null); }} title={editing === 'new' ? 'Add course' : 'Edit course'}>
        <Suspense fallback={<SkeletonRows rows={6} label="Loading form" />}>
          {editing != null && <CourseForm course={editing === 'new' ? null : editing} onCancel={() => setEditing(null)} onSaved={() => { setEditing(null); load(); }} onSavedOpen={(c) => { setEditing(c); load(); }} />}
        </Suspense>
      </Panel>
    </section>
  );
}
