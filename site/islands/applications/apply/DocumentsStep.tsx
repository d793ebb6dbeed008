/**
 * Step 3 'Supporting Documents' (spec §2, §3): one DocumentSlot per document, each uploaded at once. A removed or
 * replaced upload is deleted on the server (DELETE /api/uploads/:id; a failure is left to the 7-day clean-up).
 */
import { useController } from 'react-hook-form';
import { DOCUMENT_SLOTS } from '#contracts/application-steps.ts';
import { api } from '../../../lib/api-client.ts';
import { DocumentSlot } from '../DocumentSlot.tsx';
import { useFieldError } from './fields.tsx';
import type { ApplyForm, SlotKey } from './form.ts';

/** `uploadUrl`: where files go (default /api/uploads; a walk-in entered by an admin uploads as the applicant). */
export function DocumentsStep({ uploadUrl }: { uploadUrl?: string } = {}) {
  return (
    <div className="space-y-4">
      <p className="text-sm muted">Upload each document as a PDF, DOC, DOCX, JPG, JPEG or PNG file of at most 5MB. The ID document and qualifications are required.</p>
      {DOCUMENT_SLOTS.map((s) => <Slot key={s.key} slot={s.key} label={s.label} required={s.required} uploadUrl={uploadUrl} />)}
    </div>
  );
}

function Slot({ slot, label, required, uploadUrl }: { slot: SlotKey; label: string; required: boolean; uploadUrl?: string }) {
  const { field } = useController<ApplyForm, `documents.${SlotKey}`>({ name: `documents.${slot}` });
  const error = useFieldError(`documents.${slot}`);
  return (
    <DocumentSlot slot={slot} label={label} required={required} value={field.value} error={error} onChange={field.onChange} uploadUrl={uploadUrl}
      onDiscard={uploadUrl ? undefined : (id) => { void api(`/api/uploads/${encodeURIComponent(id)}`, { method: 'DELETE' }).catch(() => {}); }} />
  );
}
