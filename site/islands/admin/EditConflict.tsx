/**
 * The notices an admin form shows when its save was refused with 409 because someone else changed the record since
 * the form was opened (course and announcement edits; README "Edits don't silently overwrite each other"; audit C
 * item 1, no lost work). `EditConflict`: the server's message, what Reload does, and a Reload button, which takes
 * focus when the notice appears so a keyboard or screen-reader user lands on the way out. Reload (`mergeReloaded`)
 * keeps the fields the admin changed and takes the saved values for the rest; `KeptChanges` then lists each kept
 * field whose saved value differs ("Saved version: …") with a "Use saved version" button, so the admin saves again
 * knowingly against the new version. `reloadKeepingChanges` applies Reload to a react-hook-form form, and
 * `useKeptChanges` holds what KeptChanges shows.
 */
import { useEffect, useRef, useState } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';

/** `message`: the 409's text; `reloading`: a reload is in flight; `className`: extra grid classes of the form. */
export function EditConflict({ message, reloading, onReload, className = '' }: { message: string; reloading: boolean; onReload: () => void; className?: string }) {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => { button.current?.focus(); }, [message]);
  return (
    <div role="alert" className={`card border-amber-400 p-3 text-sm dark:border-amber-600 ${className}`} data-testid="edit-conflict">
      <p className="font-medium">{message}</p>
      <p className="muted mt-1">Reload takes the latest saved version and keeps the fields you changed here; then check them and save again.</p>
      {/* aria-disabled, not disabled, while reloading: a disabled button drops the focus to the page (WCAG 2.4.3). */}
      <button ref={button} type="button" className="btn-secondary mt-2 aria-disabled:cursor-not-allowed aria-disabled:opacity-60" onClick={() => { if (!reloading) onReload(); }} aria-disabled={reloading || undefined}>{reloading ? 'Reloading…' : 'Reload'}</button>
    </div>
  );
}

/** A field kept from the admin's typing after Reload, whose saved value differs: its label and the saved value shown. */
export interface KeptField { name: string; label: string; saved: string }

/** The id of kept field `name`'s "Saved version: …" line in the form whose ids start with `prefix`. */
export const keptNoteId = (prefix: string, name: string): string => `${prefix}-saved-${name}`;

/**
 * `props` (an input's, e.g. from fieldProps) with the kept field's "Saved version: …" line added to its
 * aria-describedby while `name` is one of `kept` (WCAG 1.3.1: the field says where the saved version differs).
 */
export function withKeptNote<P extends { 'aria-describedby'?: string }>(props: P, kept: KeptField[], name: string, prefix: string): P {
  if (!kept.some((f) => f.name === name)) return props;
  return { ...props, 'aria-describedby': [props['aria-describedby'], keptNoteId(prefix, name)].filter(Boolean).join(' ') };
}

/**
 * After Reload (`reloaded`: how many times it was pressed, 0 none yet): "Reloaded…" and, per kept field,
 * "Saved version: …" (id keptNoteId(prefix, name)) with "Use saved version" (`onUseSaved(name)` puts the saved value
 * into that field). Accessibility audit F4 (WCAG 2.4.3, 4.1.3): the live region is always in the page and only its
 * text changes, so the "Reloaded…" line is announced; each Reload moves the focus to the box (tabIndex -1), and so
 * does "Use saved version", whose button then goes away.
 */
export function KeptChanges({ fields, reloaded, prefix, onUseSaved, className = '' }: { fields: KeptField[]; reloaded: number; prefix: string; onUseSaved: (name: string) => void; className?: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => { if (reloaded > 0) box.current?.focus(); }, [reloaded]);
  const shown = reloaded > 0;
  return (
    <div ref={box} tabIndex={shown ? -1 : undefined} className={shown ? `card border-sky-400 p-3 text-sm dark:border-sky-600 ${className}` : 'sr-only'} data-testid={shown ? 'edit-kept' : undefined}>
      <p role="status" className="font-medium">{!shown ? '' : fields.length > 0
        ? 'Reloaded. Your changes below are kept; someone else saved something different in these fields. Save again to keep yours.'
        : 'Reloaded. The form shows the latest saved version with your changes kept. Save again to keep them.'}</p>
      {shown && fields.length > 0 && <ul className="mt-2 space-y-2">
        {fields.map((f) => (
          <li key={f.name}>
            <span className="font-medium">{f.label}</span>
            <p id={keptNoteId(prefix, f.name)} className="muted wrap-anywhere">Saved version: {f.saved}</p>
            <button type="button" className="btn-secondary mt-1 px-2 py-1" onClick={() => { onUseSaved(f.name); box.current?.focus(); }}>Use saved version<span className="sr-only"> of {f.label}</span></button>
          </li>
        ))}
      </ul>}
    </div>
  );
}

/** What a form's KeptChanges box shows, and what changes it (useKeptChanges). */
export interface KeptChangesState {
  /** The kept fields whose saved value differs, and how many times Reload succeeded (KeptChanges' props). */
  kept: KeptField[];
  reloaded: number;
  /** After a Reload: `stored` is the version now saved, `fields` the kept fields whose saved value differs. */
  show(stored: FieldValues, fields: KeptField[]): void;
  /** "Use saved version" of field `name`: the saved value goes into the form (marked changed) and the field leaves the list. */
  takeSaved(name: string): void;
  /** A save made the box stale (its "Saved version" is no longer what is saved): it goes. */
  clear(): void;
}

/**
 * The Reloaded box's state for a react-hook-form form (`setValue` puts a saved value back): one copy for the course
 * and announcement forms, which held the same three pieces of state and the same "Use saved version".
 */
export function useKeptChanges<T extends FieldValues>(setValue: UseFormReturn<T>['setValue']): KeptChangesState {
  const [saved, setSaved] = useState<FieldValues | null>(null);
  const [kept, setKept] = useState<KeptField[]>([]);
  const [reloaded, setReloaded] = useState(0);
  return {
    kept, reloaded,
    show: (stored, fields) => { setSaved(stored); setKept(fields); setReloaded((n) => n + 1); },
    takeSaved: (name) => {
      if (saved) setValue(name as Path<T>, saved[name] as never, { shouldDirty: true });
      setKept((f) => f.filter((x) => x.name !== name));
    },
    clear: () => { setSaved(null); setKept([]); setReloaded(0); },
  };
}

/** Whether react-hook-form's `dirtyFields` entry (true, or nested objects/arrays of them) marks anything changed. */
const anyDirty = (v: unknown): boolean => v === true || (typeof v === 'object' && v != null && Object.values(v).some(anyDirty));
/** Compares form values loosely: a number typed as '4' equals a stored 4. */
const same = (a: unknown, b: unknown): boolean => {
  const text = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'number' ? String(x) : x));
  return text(a) === text(b);
};

/**
 * The form values after Reload: `stored` (the version now saved) with every top-level field the admin changed
 * (`dirty`, react-hook-form's dirtyFields) taken from `typed`. `changed` lists those kept fields; `differs` those of
 * them whose saved value is not what the admin has (the ones KeptChanges shows). Pure.
 */
export function mergeReloaded<T extends Record<string, unknown>>(typed: T, stored: T, dirty: object): { values: T; changed: (keyof T)[]; differs: (keyof T)[] } {
  const changed = (Object.keys(stored) as (keyof T)[]).filter((k) => anyDirty((dirty as Record<keyof T, unknown>)[k]));
  const values = { ...stored };
  for (const k of changed) values[k] = typed[k];
  return { values, changed, differs: changed.filter((k) => !same(typed[k], stored[k])) };
}

/**
 * Reload on a react-hook-form form (course and announcement edits): resets it to `stored`, the version now saved,
 * then puts back every field the admin changed (`dirty`, its dirtyFields), still marked unsaved. Returns the kept
 * fields whose saved value differs from what the admin has (mergeReloaded's `differs`, for KeptChanges).
 */
export function reloadKeepingChanges<T extends FieldValues>(form: Pick<UseFormReturn<T>, 'getValues' | 'reset' | 'setValue'>, stored: T, dirty: object): (keyof T)[] {
  const typed = form.getValues();
  const { changed, differs } = mergeReloaded(typed, stored, dirty);
  form.reset(stored);
  for (const k of changed) form.setValue(k as Path<T>, typed[k] as never, { shouldDirty: true });
  return differs;
}

/** A saved value as KeptChanges shows it: text as it is, Yes/No, a list joined with commas, '(blank)' for nothing. */
export function savedText(v: unknown): string {
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (Array.isArray(v)) return v.length ? v.map((x) => (typeof x === 'object' && x ? Object.values(x).join(' ') : String(x))).join(', ') : '(none)';
  const s = String(v ?? '').trim();
  return s || '(blank)';
}
