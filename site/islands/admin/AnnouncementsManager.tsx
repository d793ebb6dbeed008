/**
 * /admin/announcements (spec §2 Announcements, §5, §6, §8; issue #6): a table of every announcement; create/edit in a dialog (title ≥ 3, content ≥ 10, image URL or blank → null, active,
 * sendEmail, sendNotification); delete after the AlertDialog 'Are you sure you want to delete this
 * announcement?'; active toggle (checked against the row's updatedAt: a row someone else changed since is refused
 * with the server's message and the table reloads). A toggle or delete that did not reach the server says so until
 * closed (save-failure.ts). E-mailing on edit uses POST /api/announcements/{id}/notify.
 * A form saved while the admin went on typing stays open on the saved announcement (a new one becomes its edit).
 * The rows are cards below 1024 px and wherever the table's region is narrower than 44rem, as with text at 200 %
 * (table-cards.ts): no sideways scroll, Edit, Deactivate and Delete in view.
 * The table region is spec §2's 500 px high, scrolling inside, at normal text: 31.25rem, so it grows with the reader's
 * text size, but not past the window less 8rem (the header and a margin), so the whole box can be on screen at once;
 * never under 500 px. With text at 200 % a fixed 500 px box held less than one card (350 px each; layout review, 2026-11-28).
 * A row's text is cut after two lines (line-clamp-2: `block` beside it had undone that; Edit shows it all), and in a
 * table its buttons keep to one line (they stood one above another, making each row 115 px at 100 %): five rows fit
 * where four did. The header row stays in view while the box scrolls.
 * The delete question is its own AlertDialog, not useConfirm's (it stays open, "Deleting…", until the server answers,
 * and then moves the focus to the next row), but in the same box and wrapping button row (ConfirmDialog CONFIRM_BOX,
 * CONFIRM_BUTTONS: with 200 % text on a phone its Cancel was pushed past the left edge, x=−53).
 * Non-admins see the §6 'Unauthorized Access' message.
 */
import { lazy, Suspense, useRef, useState } from 'react';
import { useStore } from '@nanostores/react';
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import type { Announcement } from '#contracts/announcements.ts';
import { ApiError } from '../../lib/api-client.ts';
import { saveApi } from '../ui/save-api.ts';
import { useBackCloses } from '../ui/use-back-closes.ts';
import { toast } from '../../stores/toasts.ts';
import { formatStaffDateTime } from '../../lib/format.ts';
import { useAdminAccess } from './use-admin.ts';
import { $adminAnnouncements } from './admin-stores.ts';
import Panel from './Panel.tsx';
import { Empty } from './admin-ui.tsx';
import { ErrorState } from '../ui/ErrorState.tsx';
import { SkeletonRows } from '../ui/SkeletonRows.tsx';
import { TABLE_CARDS } from './table-cards.ts';
import { canTakeFocus, useReturnFocus } from '../ui/return-focus.ts';
import { BusyButton, busyProps } from '../ui/BusyButton.tsx';
import { useSettleGuard } from '../ui/confirm-guard.ts';
import { saveFailureToast } from './save-failure.ts';
import { CONFIRM_BOX, CONFIRM_BUTTONS } from './ConfirmDialog.tsx';

export const UNAUTHORIZED_ACCESS = 'Unauthorized Access: You do not have permission to access this page. Please contact an administrator if you believe this is an error.';
export const UNEXPECTED = 'An unexpected error occurred';
const AnnouncementForm = lazy(() => import('./AnnouncementForm.tsx'));

/** The /admin/announcements island; non-admins see the §6 'Unauthorized Access' message. */
export default function AnnouncementsManager() {
  const access = useAdminAccess();
  if (access === 'loading') return <SkeletonRows rows={5} label="Checking your access" />;
  if (access !== 'admin') return <div role="alert" className="card border-red-300 p-4 text-red-800 dark:border-red-700 dark:text-red-200">{UNAUTHORIZED_ACCESS}</div>;
  return <Manager />;
}

function Manager() {
  const list = useStore($adminAnnouncements);
  const items = list.data?.announcements;
  const error = Boolean(list.error);
  const [editing, setEditing] = useState<Announcement | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Announcement | null>(null);
  // The question's Delete ignores the tap that opened it (phone audit: a double tap answered a confirmation).
  const settle = useSettleGuard(deleting != null);
  useBackCloses(deleting != null, () => { setDeleting(null); return true; });
  const [busy, setBusy] = useState(false);
  const load = () => $adminAnnouncements.revalidate();
  const heading = useRef<HTMLHeadingElement>(null);
  // After a delete the row's buttons go: the focus moves to the next row's Edit (or the one before, or the heading).
  const afterDelete = useRef<number | null | 'heading'>(null);
  const deleteFocus = useReturnFocus();
  const closeDeleteFocus = (e: Event) => {
    const next = afterDelete.current;
    afterDelete.current = null;
    if (next == null) { deleteFocus.onCloseAutoFocus(e); return; }
    e.preventDefault();
    const edit = next === 'heading' ? null : document.querySelector<HTMLElement>(`[data-announcement-id="${next}"] [data-edit]`);
    (canTakeFocus(edit) ? edit : heading.current)?.focus();
  };

  const toggle = async (a: Announcement) => {
    setBusy(true);
    try {
      // The row's title and content go back too: expectedUpdatedAt makes sure they are still the announcement's.
      await saveApi(`/api/announcements/${a.id}`, { method: 'PUT', json: { title: a.title, content: a.content, imageUrl: a.imageUrl ?? '', active: !a.active, expectedUpdatedAt: a.updatedAt ?? undefined } });
      toast({ title: 'Announcement updated', description: `${a.title} is now ${a.active ? 'inactive' : 'active'}.`, variant: 'success' });
      load();
    } catch (e) {
      toast(saveFailureToast('Error updating announcement', e, UNEXPECTED));
      if (e instanceof ApiError && e.status === 409) load();
    } finally { setBusy(false); }
  };
  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await saveApi(`/api/announcements/${deleting.id}`, { method: 'DELETE' });
      const at = items?.findIndex((a) => a.id === deleting.id) ?? -1;
      afterDelete.current = (items?.[at + 1] ?? items?.[at - 1])?.id ?? 'heading';
      toast({ title: 'Announcement deleted', variant: 'success' });
      setDeleting(null);
      load();
    } catch (e) {
      toast(saveFailureToast('Error deleting announcement', e, UNEXPECTED));
    } finally { setBusy(false); }
  };

  return (
    <section>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold">Announcements</h1>
        <button type="button" className="btn-primary" onClick={() => setEditing('new')}>New announcement</button>
      </div>
      {error ? <ErrorState message="Failed to load announcements" onRetry={load} />
        : !items ? <SkeletonRows rows={5} label="Loading announcements" />
        : items.length === 0 ? <Empty>No announcements yet.</Empty>
        : (
          <div className={`card overflow-auto ${TABLE_CARDS.region}`} style={{ height: 'max(500px, min(31.25rem, calc(100vh - 8rem)))' }} data-testid="announcements-table" tabIndex={0} role="region" aria-label="Announcements table">
            <table className={`w-full text-sm ${TABLE_CARDS.block}`}>
              <thead className={`sticky top-0 border-b border-slate-200 bg-white text-left dark:border-slate-700 dark:bg-slate-900 ${TABLE_CARDS.visuallyHidden}`}>
                <tr><th scope="col" className="px-3 py-2">Title</th><th scope="col" className="px-3 py-2">Status</th><th scope="col" className="px-3 py-2">Created</th><th scope="col" className="px-3 py-2">Actions</th></tr>
              </thead>
              <tbody className={TABLE_CARDS.block}>
                {items.map((a) => (
                  <tr key={a.id} className={`border-b border-slate-100 align-top last:border-0 dark:border-slate-800 ${TABLE_CARDS.row}`} data-testid="announcement-row" data-announcement-id={a.id}>
                    <td className={`px-3 py-2 ${TABLE_CARDS.cell}`}><span className="block font-medium">{a.title}</span><span className="line-clamp-2 muted">{a.content}</span></td>
                    <td className={`px-3 py-2 ${TABLE_CARDS.labelled}`} data-label="Status">{a.active ? 'Active' : 'Inactive'}</td>
                    <td className={`px-3 py-2 ${TABLE_CARDS.nowrapWide} ${TABLE_CARDS.labelled}`} data-label="Created">{formatStaffDateTime(a.createdAt)}</td>
                    <td className={`px-3 py-2 ${TABLE_CARDS.actions}`}><div className={`flex gap-1 ${TABLE_CARDS.actionsRow}`}>
                      <button type="button" className="btn-secondary px-2 py-1" data-edit onClick={() => setEditing(a)} aria-label={`Edit ${a.title}`}>Edit</button>
                      <BusyButton className="btn-secondary px-2 py-1" busy={busy} onClick={() => void toggle(a)} aria-label={`${a.active ? 'Deactivate' : 'Activate'} ${a.title}`}>{a.active ? 'Deactivate' : 'Activate'}</BusyButton>
                      <button type="button" className="btn-danger px-2 py-1" onClick={() => setDeleting(a)} aria-label={`Delete ${a.title}`}>Delete</button>
                    </div></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}

      <Panel open={editing != null} onOpenChange={(o) => { if (!o) setEditing(null); }} title={editing === 'new' ? 'New announcement' : 'Edit announcement'}>
        <Suspense fallback={<SkeletonRows rows={4} label="Loading form" />}>
          {editing != null && <AnnouncementForm item={editing === 'new' ? null : editing} onDone={() => { setEditing(null); load(); }} onCancel={() => setEditing(null)} onSaved={(a) => { setEditing(a); load(); }} />}
        </Suspense>
      </Panel>

      <AlertDialog.Root open={deleting != null} onOpenChange={(o) => { if (!o) setDeleting(null); }}>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/40" />
          <AlertDialog.Content onOpenAutoFocus={deleteFocus.onOpenAutoFocus} onCloseAutoFocus={closeDeleteFocus} className={CONFIRM_BOX}>
            <AlertDialog.Title className="text-lg font-bold">Delete announcement</AlertDialog.Title>
            <AlertDialog.Description className="mt-2">Are you sure you want to delete this announcement?</AlertDialog.Description>
            {deleting && <p className="mt-1 text-sm muted">{deleting.title}</p>}
            <div className={CONFIRM_BUTTONS}>
              <AlertDialog.Cancel className="btn-secondary">Cancel</AlertDialog.Cancel>
              <button type="button" className="btn-danger" {...(busy ? busyProps(true) : settle.guard(() => void remove()))}>{busy ? 'Deleting…' : 'Delete'}</button>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </section>
  );
}

