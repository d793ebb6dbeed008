/**
 * One document slot of spec §3 (ID Document, Qualifications Documents, Matric Statements, CV or Resume):
 * choose a file → real upload with a progress bar → shows the file with Replace and Remove (Remove asks first).
 * A file over 5 MB raises the spec's alert 'File size exceeds 5MB limit' and is not sent.
 */
import { useRef, useState } from 'react';
import { ACCEPT, precheck, SIZE_MESSAGE, uploadFile } from './upload.ts';
import { formatBytes, type UploadView } from '../student/shared.tsx';

export interface SlotFile { id: string; name: string; size: number }

interface Props {
  slot: string; label: string; required: boolean;
  value: SlotFile | null;
  error?: string;
  onChange: (file: SlotFile | null) => void;
  /** Called with the previous upload id when a file is removed or replaced (the caller may delete it). */
  onDiscard?: (id: string) => void;
}

export function DocumentSlot({ slot, label, required, value, error, onChange, onDiscard }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const id = `f-documents-${slot}`;
  const shown = localError ?? error;

  async function pick(file: File | undefined) {
    if (!file) return;
    const problem = precheck(file);
    if (problem) {
      if (problem === SIZE_MESSAGE) window.alert(SIZE_MESSAGE);
      setLocalError(problem);
      if (input.current) input.current.value = '';
      return;
    }
    setLocalError(null);
    setProgress(0);
    try {
      const up: UploadView = await uploadFile(file, setProgress);
      const previous = value?.id;
      onChange({ id: up.id, name: up.name, size: up.size });
      if (previous && onDiscard) onDiscard(previous);
    } catch (e) {
      setLocalError(e instanceof Error ? e.message : 'Upload failed');
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  }

  return (
    <div className="rounded-md border border-slate-200 p-4 dark:border-slate-700" data-slot={slot}>
      <label htmlFor={id} className="label">{label}{required ? ' (required)' : ' (optional)'}</label>
      <p id={`${id}-hint`} className="text-xs muted">PDF, DOC, DOCX, JPG, JPEG or PNG, up to 5MB.</p>
      <input ref={input} id={id} type="file" accept={ACCEPT} className={value || progress !== null ? 'sr-only' : 'mt-2 block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-brand-700 file:px-3 file:py-2 file:font-semibold file:text-white'}
        tabIndex={value ? -1 : undefined} aria-invalid={shown ? true : undefined} aria-describedby={`${id}-hint${shown ? ` ${id}-error` : ''}`}
        disabled={progress !== null} onChange={(e) => void pick(e.target.files?.[0])} />
      {progress !== null && (
        <div className="mt-2">
          <div role="progressbar" aria-label={`Uploading ${label}`} aria-valuenow={progress} aria-valuemin={0} aria-valuemax={100} className="h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700">
            <div className="h-full bg-brand-600 transition-[width]" style={{ width: `${progress}%` }} />
          </div>
          <p className="mt-1 text-xs muted" aria-live="polite">Uploading… {progress}%</p>
        </div>
      )}
      {value && progress === null && (
        <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
          <span className="font-medium" data-testid={`file-${slot}`}>{value.name}</span>
          <span className="muted">({formatBytes(value.size)})</span>
          {confirming ? (
            <span className="flex items-center gap-2" role="group" aria-label={`Remove ${value.name}?`}>
              <span>Remove this file?</span>
              <button type="button" className="btn-danger px-2 py-1" onClick={() => { const old = value.id; setConfirming(false); onChange(null); onDiscard?.(old); }}>Yes, remove</button>
              <button type="button" className="btn-secondary px-2 py-1" onClick={() => setConfirming(false)}>Cancel</button>
            </span>
          ) : (
            <>
              <button type="button" className="btn-secondary px-2 py-1" onClick={() => input.current?.click()} aria-label={`Replace ${label}`}>Replace</button>
              <button type="button" className="btn-secondary px-2 py-1" onClick={() => setConfirming(true)} aria-label={`Remove ${label}`}>Remove</button>
            </>
          )}
        </div>
      )}
      {shown && <p id={`${id}-error`} role="alert" className="field-error">{shown}</p>}
    </div>
  );
}
