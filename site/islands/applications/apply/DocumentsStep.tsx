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

/**
 * `uploadUrl`: where files go (default /api/uploads; a walk-in entered by an admin uploads as the applicant).
 * `onUploading(slot, uploading)`: hears each slot's upload start (true) and end (false, done or failed), so the
 * wizard can say a document is still uploading rather than missing.
 */
export function DocumentsStep({ uploadUrl, onUploading }: { uploadUrl?: string; onUploading?: (slot: SlotKey, uploading: boolean) => void } = {}) {
  return (
    <div className="space-y-4">
      <p className="text-sm muted">Upload each document as a PDF, DOC, DOCX, JPG, JPEG or PNG file of at most 5MB. The ID document and qualifications are required.</p>
      {DOCUMENT_SLOTS.map((s) => <Slot key={s.key} slot={s.key} label={s.label} required={s.required} uploadUrl={uploadUrl} onUploading={onUploading} />)}
    </div>
  );
}

function Slot({ slot, label, required, uploadUrl, onUploading }: { slot: SlotKey; label: string; required: boolean; uploadUrl?: string; onUploading?: (slot: SlotKey, uploading: boolean) => void }) {
  const { field } = useController<ApplyForm, `documents.${SlotKey}`>({ name: `documents.${slot}` });
  const error = useFieldError(`documents.${slot}`);
  return (
    <DocumentSlot slot={slot} label={label} required={required} value={field.value} error={error} onChange={field.onChange} uploadUrl={uploadUrl}
      onUploading={onUploading && ((on) => onUploading(slot, on))}
      onDiscard={uploadUrl ? undefined : (id) => { void api(`/api/uploads/${encodeURIComponent(id)}`, { method: 'DELETE' }).catch(() => {}); }} />
  );
}
