/**
 * Announcement create/edit form (spec §5 Announcement: 'Title must be at least 3 characters.', 'Content must be
 * at least 10 characters.', image URL valid or blank → null; active default true; sendEmail / sendNotification).
 * Editing with sendEmail calls POST /api/announcements/{id}/notify (spec §7) after the save. Toasts of spec §8; a save
 * that did not reach the server says so and stays until closed (saveFailureToast, save-failure.ts). When
 * that e-mail step fails the edit is saved already: the form stays open and says 'Saved, but the e-mails were not
 * sent.' with a 'Send e-mails' button that tries again (audit C item 6).
 * No lost work ("no lost work" audit): after a save the form takes the saved version as its base and keeps every
 * field the admin changed while the save (or the e-mail step) was in flight; with such newer changes the form stays
 * open and says they are not saved yet, instead of closing. A new announcement saved with newer changes turns the
 * form into the edit of that announcement (`onSaved`), so saving them again updates it rather than creating (and
 * mailing) a second one. After failed e-mails with newer changes the retry is 'Save and send e-mails': it saves them
 * first (checked against the saved version, as any edit) and then e-mails, so students get the text the admin sees;
 * a refused save sends nothing and keeps the form as typed. An edit with "Send e-mail" whose text changed while it was
 * being saved mails nothing by itself (students would get the saved text, not the screen's): the same box says so
 * and offers 'Save and send e-mails' (senior review of 389827d; an e-mail to every student cannot be recalled).
 * Each save also clears the Reloaded box of an earlier 409: its "Saved version" is no longer the saved one.
 * An edit sends the `updatedAt` it was opened on as `expectedUpdatedAt`. When someone else saved the announcement
 * since (409), nothing is sent to students, the form keeps what was typed and shows the server's message with a
 * Reload button; Reload loads the announcement as it is now, keeps the fields this admin changed and takes the saved
 * values for the rest (audit C item 1, no lost work), lists the kept fields whose saved value differs
 * (EditConflict.tsx KeptChanges), and the next save is checked against that version (the version state: useEditVersion,
 * use-edit-version.ts, shared with CourseForm).
 * E-mail to all students (audit: a draft was mailed to everyone unasked): the checkbox is disabled, unticked and
 * explained while Active is unticked (the API refuses it too), and a save that e-mails first asks "Send this
 * announcement by e-mail?" with the number of students who will receive it (GET /api/admin/announcements/recipients).
 */
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { AnnouncementInputSchema, type Announcement, type AnnouncementInput, type AnnouncementRecipients } from '#contracts/announcements.ts';
import { api, ApiError } from '../../lib/api-client.ts';
import { saveApi } from '../ui/save-api.ts';
import { toast } from '../../stores/toasts.ts';
import { Field, fieldProps } from '../ui/Field.tsx';
import { usePanelUnsaved } from './Panel.tsx';
import { EditConflict, KeptChanges, withKeptNote } from './EditConflict.tsx';
import { useEditVersion } from './use-edit-version.ts';
import { $adminAnnouncements } from './admin-stores.ts';
import { BusyButton, unlessBusy } from '../ui/BusyButton.tsx';
import { useConfirm } from './ConfirmDialog.tsx';
import { saveFailureToast } from './save-failure.ts';

const UNEXPECTED = 'An unexpected error occurred';
/** Why an edit's e-mails were held back: the admin changed the text while it was being saved. */
const HELD_BACK = 'You changed the announcement while it was being saved, so no e-mails were sent: they would have carried the saved text, not what you see here.';

const formValues = (item: Announcement | null): AnnouncementInput => ({
  title: item?.title ?? '', content: item?.content ?? '', imageUrl: item?.imageUrl ?? '', active: item?.active ?? true, sendEmail: false, sendNotification: false,
});

/** The form's labels of stored fields, for the fields Reload kept (KeptChanges); the send flags are not stored. */
const LABELS: Partial<Record<keyof AnnouncementInput, string>> = { title: 'Title', content: 'Content', imageUrl: 'Image URL', active: 'Active' };

/**
 * `item`: the announcement to edit, null for a new one. `onDone`: saved (and e-mailed when asked) with nothing newer in
 * the form: close it and reload the table. `onCancel`: closed unsaved. `onSaved(a)`: `a` was saved while the form
 * stays open with newer changes (the table reloads; a new announcement is now edited as `a`).
 */
export default function AnnouncementForm({ item, onDone, onCancel, onSaved }: { item: Announcement | null; onDone: () => void; onCancel: () => void; onSaved?: (a: Announcement) => void }) {
  const { register, handleSubmit, setError, reset, setValue, getValues, watch, formState: { errors, isSubmitting, isDirty, dirtyFields } } = useForm<AnnouncementInput>({
    resolver: zodResolver(AnnouncementInputSchema) as any,
    defaultValues: formValues(item),
    shouldFocusError: true,
  });
  // The announcement the form edits (`item`, or the one this form created), the version it is based on, a 409's
  // notice, Reload and the KeptChanges box (use-edit-version.ts). Reload finds it in the admin list.
  const { current, editing, version, savedHere, conflict, reloading, keptBox, clearConflict, conflicted, snapshot, changedFrom, rebase, reload } = useEditVersion({
    record: item, form: { getValues, reset, setValue }, dirtyFields, formValues, labels: LABELS, conflictKey: 'announcement',
    fetchLatest: async (a) => (await api<{ announcements: Announcement[] }>('/api/admin/announcements')).announcements.find((x) => x.id === a.id) ?? null,
    revalidate: () => $adminAnnouncements.revalidate(),
    reloadError: { title: 'Error reloading announcement', unexpected: UNEXPECTED, deleted: 'This announcement was deleted.' },
  });
  const close = usePanelUnsaved(isDirty, onCancel);
  const active = watch('active');
  useEffect(() => { if (!active) { setValue('sendEmail', false); setValue('sendNotification', false); } }, [active, setValue]);
  const [confirmDialog, ask] = useConfirm();
  /** Asks before a mass e-mail, with how many students will receive it; false when cancelled or the count failed. */
  const confirmMail = async (): Promise<boolean> => {
    let n: number;
    try { n = (await api<AnnouncementRecipients>('/api/admin/announcements/recipients')).students; } catch (e) {
      toast(saveFailureToast('Error submitting announcement', e, UNEXPECTED));
      return false;
    }
    const who = `${n} student${n === 1 ? '' : 's'}`;
    return ask({ title: 'Send this announcement by e-mail?', description: `${who} will receive an e-mail. This cannot be undone.`, action: `Send e-mail to ${who}`, cancel: 'Keep editing' });
  };
  /** After a save of `a` (and its e-mails): closes the form, unless it holds changes newer than `a` (then they stay, marked unsaved). */
  const finish = (a: Announcement) => {
    if (changedFrom(formValues(a)).length === 0) { onDone(); return; }
    onSaved?.(a);
  };
  /**
   * PUT (editing; never with sendEmail: the e-mails go through /notify) or POST `v`. Null when refused: a 409 edit
   * conflict shows EditConflict, field errors go to their fields, and the §8 error toast is shown; the form keeps all.
   */
  const save = async (v: AnnouncementInput): Promise<{ announcement: Announcement; emailed: number } | null> => {
    const body = { ...v, imageUrl: v.imageUrl ? v.imageUrl : null };
    try {
      return current
        ? await saveApi(`/api/announcements/${current.id}`, { method: 'PUT', json: { ...body, sendEmail: false, expectedUpdatedAt: version } })
        : await saveApi('/api/announcements', { method: 'POST', json: body });
    } catch (e) {
      if (conflicted(e)) return null;
      if (e instanceof ApiError) for (const [k, m] of Object.entries(e.fields)) setError(k as keyof AnnouncementInput, { message: m }, { shouldFocus: true });
      toast(saveFailureToast(`Error ${current ? 'updating' : 'creating'} announcement`, e, UNEXPECTED));
      return null;
    }
  };
  const onSubmit = handleSubmit(async (v) => {
    // What the form held when it was submitted: anything typed from here on is newer than this save.
    const sent = snapshot();
    const wasEditing = editing;
    clearConflict();
    if (v.sendEmail && !await confirmMail()) return;
    try {
      const saved = await save(v);
      if (!saved) return;
      toast({ title: wasEditing ? 'Announcement updated' : 'Announcement created', variant: 'success' });
      const newer = rebase(saved.announcement, sent);
      if (v.sendEmail && wasEditing) {
        // Changed during the save: /notify would mail the saved text, not the screen's; the admin chooses (HELD_BACK).
        if (newer.length > 0) { setEmailFailure(HELD_BACK); return; }
        if (!await sendEmails(saved.announcement.id)) return;
      } else if (v.sendEmail) sentToast(saved.emailed);
      finish(saved.announcement);
    } catch (e) {
      // Kept open: what is typed stays (no lost work).
      toast(saveFailureToast('Error submitting announcement', e, UNEXPECTED));
    }
  });
  // The e-mail step after a saved edit (POST /notify) failed or was held back: why; the form stays open with "Send e-mails".
  const [emailFailure, setEmailFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const sentToast = (sent: number) => toast({ title: 'Email notifications sent', description: `${sent} student${sent === 1 ? '' : 's'} will receive an e-mail.`, variant: 'success' });
  /** POST /notify for saved announcement `id`; true when sent, else the form says so (audit C item 6). */
  const sendEmails = async (id: number): Promise<boolean> => {
    setSending(true);
    try {
      sentToast((await saveApi<{ sent: number }>(`/api/announcements/${id}/notify`, { method: 'POST', json: {} })).sent);
      setEmailFailure(null);
      return true;
    } catch (e) {
      setEmailFailure(e instanceof ApiError ? e.userMessage : 'The server could not be reached. Check your connection and try again.');
      return false;
    } finally { setSending(false); }
  };
  /**
   * "Send e-mails" after a failed e-mail step. With changes newer than the save ("Save and send e-mails") they are
   * saved first, so the e-mails carry what the form shows; a refused save sends nothing, and text typed during that
   * save holds them back again (HELD_BACK).
   */
  const retryEmails = async () => {
    if (!current) return;
    if (!isDirty) { if (await sendEmails(current.id)) finish(current); return; }
    await handleSubmit(async (v) => {
      const sent = snapshot();
      clearConflict();
      const saved = await save({ ...v, sendEmail: false });
      if (!saved) return;
      toast({ title: 'Announcement updated', variant: 'success' });
      if (rebase(saved.announcement, sent).length > 0) { setEmailFailure(HELD_BACK); return; }
      if (await sendEmails(saved.announcement.id)) finish(saved.announcement);
    })();
  };
  const err = (k: keyof AnnouncementInput) => errors[k]?.message as string | undefined;
  return (
    <form noValidate onSubmit={unlessBusy(isSubmitting, onSubmit)} className="grid gap-4" aria-label={editing ? 'Edit announcement' : 'New announcement'}>
      <Field id="a-title" label="Title" error={err('title')}><input className="input" {...withKeptNote(fieldProps('a-title', err('title')), keptBox.kept, 'title', 'a')} {...register('title')} /></Field>
      <Field id="a-content" label="Content" error={err('content')}><textarea rows={6} className="input" {...withKeptNote(fieldProps('a-content', err('content')), keptBox.kept, 'content', 'a')} {...register('content')} /></Field>
      <Field id="a-image" label="Image URL (optional)" error={err('imageUrl')} hint="A link to a JPEG, PNG or WebP picture. Publishing keeps a copy on this site; a link that does not open is left out."><input type="url" className="input" {...withKeptNote(fieldProps('a-image', err('imageUrl')), keptBox.kept, 'imageUrl', 'a')} {...register('imageUrl')} /></Field>
      {/* Box and words in one label: a 44 px tall target, as on the profile and login pages (was a 16×16 box; phone audit 2026-11-28). */}
      <label htmlFor="a-active" className="flex w-fit max-w-full min-h-11 items-center gap-3 text-sm"><input id="a-active" type="checkbox" className="h-5 w-5 shrink-0" {...withKeptNote({}, keptBox.kept, 'active', 'a')} {...register('active')} /><span className="min-w-0">Active (shown on the public site)</span></label>
      <div>
        <label htmlFor="a-email" className="flex w-fit max-w-full min-h-11 items-center gap-3 text-sm"><input id="a-email" type="checkbox" className="h-5 w-5 shrink-0" disabled={!active} aria-describedby={!active || err('sendEmail') ? 'a-email-hint' : undefined} {...register('sendEmail')} /><span className="min-w-0">Send e-mail to all students</span></label>
        {(!active || err('sendEmail')) && <p id="a-email-hint" className={`mt-1 text-sm ${err('sendEmail') ? 'text-red-700 dark:text-red-300' : 'muted'}`}>{err('sendEmail') ?? 'Only an active announcement can be e-mailed: tick Active first.'}</p>}
      </div>
      <div>
        <label htmlFor="a-notify" className="flex w-fit max-w-full min-h-11 items-center gap-3 text-sm"><input id="a-notify" type="checkbox" className="h-5 w-5 shrink-0" disabled={!active} aria-describedby={!active || err('sendNotification') ? 'a-notify-hint' : undefined} {...register('sendNotification')} /><span className="min-w-0">Send a portal notification to all students</span></label>
        {(!active || err('sendNotification')) && <p id="a-notify-hint" className={`mt-1 text-sm ${err('sendNotification') ? 'text-red-700 dark:text-red-300' : 'muted'}`}>{err('sendNotification') ?? 'Only an active announcement can be sent as a notification: tick Active first.'}</p>}
      </div>
      {confirmDialog}
      {conflict && <EditConflict message={conflict} reloading={reloading} onReload={() => void reload()} />}
      <KeptChanges fields={keptBox.kept} reloaded={keptBox.reloaded} prefix="a" onUseSaved={keptBox.takeSaved} />
      {emailFailure && (
        <div role="alert" className="card border-red-400 p-3 text-sm dark:border-red-600" data-testid="email-failed">
          <p className="font-medium">Saved, but the e-mails were not sent.</p>
          <p className="muted mt-1">{emailFailure}</p>
          {isDirty && <p className="mt-1">Your changes since the save are not saved yet. Save and send e-mails saves them first, so students get what you see here.</p>}
          <BusyButton className="btn-secondary mt-2" onClick={() => void retryEmails()} busy={sending || isSubmitting}>{sending ? 'Sending…' : isDirty ? 'Save and send e-mails' : 'Send e-mails'}</BusyButton>
        </div>
      )}
      {/* Always in the page, so the text is announced when it appears (WCAG 4.1.3). */}
      <p role="status" className={savedHere && isDirty && !emailFailure ? 'card border-sky-400 p-3 text-sm dark:border-sky-600' : 'sr-only'} data-testid={savedHere && isDirty && !emailFailure ? 'newer-unsaved' : undefined}>
        {savedHere && isDirty && !emailFailure ? 'Saved. Your changes since are not saved yet: Save changes to keep them.' : ''}
      </p>
      {/* flex-wrap: with large text on a phone Cancel goes below the save button, not past the dialog's edge (was x=358–529). */}
      <div className="flex flex-wrap gap-2">
        <BusyButton type="submit" className="btn-primary" busy={isSubmitting} disabled={reloading}>{isSubmitting ? 'Saving…' : editing ? 'Save changes' : 'Create announcement'}</BusyButton>
        <button type="button" className="btn-secondary" onClick={() => void close()} disabled={isSubmitting}>Cancel</button>
      </div>
    </form>
  );
}
