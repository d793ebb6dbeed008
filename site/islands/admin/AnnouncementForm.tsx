/**
 * Announcement create/edit form (spec §5 Announcement: 'Title must be at least 3 characters.', 'Content must be
 * at least 10 characters.', image URL valid or blank → null; active default true; sendEmail / sendNotification).
 * Editing with sendEmail calls POST /api/announcements/{id}/notify (spec §7). Toasts of spec §8.
 */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { AnnouncementInputSchema, type Announcement, type AnnouncementInput } from '#contracts/announcements.ts';
import { ApiError } from '../../lib/api-client.ts';
import { saveApi } from '../ui/save-api.ts';
import { toast } from '../../stores/toasts.ts';
import { Field, fieldProps } from '../ui/Field.tsx';
import { usePanelUnsaved } from './Panel.tsx';

const UNEXPECTED = 'An unexpected error occurred';

export default function AnnouncementForm({ item, onDone, onCancel }: { item: Announcement | null; onDone: () => void; onCancel: () => void }) {
  const editing = item != null;
  const { register, handleSubmit, setError, formState: { errors, isSubmitting, isDirty } } = useForm<AnnouncementInput>({
    resolver: zodResolver(AnnouncementInputSchema) as any,
    defaultValues: { title: item?.title ?? '', content: item?.content ?? '', imageUrl: item?.imageUrl ?? '', active: item?.active ?? true, sendEmail: false, sendNotification: false },
    shouldFocusError: true,
  });
  const close = usePanelUnsaved(isDirty, onCancel);
  const onSubmit = handleSubmit(async (v) => {
    const verb = editing ? 'updating' : 'creating';
    try {
      const body = { ...v, imageUrl: v.imageUrl ? v.imageUrl : null };
      let saved: { announcement: Announcement; emailed: number };
      try {
        saved = editing
          ? await saveApi(`/api/announcements/${item.id}`, { method: 'PUT', json: { ...body, sendEmail: false } })
          : await saveApi('/api/announcements', { method: 'POST', json: body });
      } catch (e) {
        if (e instanceof ApiError) for (const [k, m] of Object.entries(e.fields)) setError(k as keyof AnnouncementInput, { message: m }, { shouldFocus: true });
        toast({ title: `Error ${verb} announcement`, description: e instanceof ApiError ? e.userMessage : UNEXPECTED, variant: 'destructive' });
        return;
      }
      toast({ title: editing ? 'Announcement updated' : 'Announcement created', variant: 'success' });
      if (v.sendEmail) {
        const sent = editing ? (await saveApi<{ sent: number }>(`/api/announcements/${item.id}/notify`, { method: 'POST', json: {} })).sent : saved.emailed;
        toast({ title: 'Email notifications sent', description: `${sent} student${sent === 1 ? '' : 's'} will receive an e-mail.`, variant: 'success' });
      }
      onDone();
    } catch (e) {
      toast({ title: 'Error submitting announcement', description: e instanceof ApiError ? e.userMessage : UNEXPECTED, variant: 'destructive' });
      onDone();
    }
  });
  const err = (k: keyof AnnouncementInput) => errors[k]?.message as string | undefined;
  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4" aria-label={editing ? 'Edit announcement' : 'New announcement'}>
      <Field id="a-title" label="Title" error={err('title')}><input className="input" {...fieldProps('a-title', err('title'))} {...register('title')} /></Field>
      <Field id="a-content" label="Content" error={err('content')}><textarea rows={6} className="input" {...fieldProps('a-content', err('content'))} {...register('content')} /></Field>
      <Field id="a-image" label="Image URL (optional)" error={err('imageUrl')} hint="A link to a JPEG, PNG or WebP picture. Publishing keeps a copy on this site; a link that does not open is left out."><input type="url" className="input" {...fieldProps('a-image', err('imageUrl'))} {...register('imageUrl')} /></Field>
      <div className="flex items-center gap-2"><input id="a-active" type="checkbox" className="h-4 w-4" {...register('active')} /><label htmlFor="a-active" className="text-sm">Active (shown on the public site)</label></div>
      <div className="flex items-center gap-2"><input id="a-email" type="checkbox" className="h-4 w-4" {...register('sendEmail')} /><label htmlFor="a-email" className="text-sm">Send e-mail to all students</label></div>
      <div className="flex items-center gap-2"><input id="a-notify" type="checkbox" className="h-4 w-4" {...register('sendNotification')} /><label htmlFor="a-notify" className="text-sm">Send a portal notification to all students</label></div>
      <div className="flex gap-2">
        <button type="submit" className="btn-primary" disabled={isSubmitting}>{isSubmitting ? 'Saving…' : editing ? 'Save changes' : 'Create announcement'}</button>
        <button type="button" className="btn-secondary" onClick={() => void close()} disabled={isSubmitting}>Cancel</button>
      </div>
    </form>
  );
}
