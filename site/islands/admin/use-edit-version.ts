/**
 * The version state of an admin edit form, one copy for the course and announcement forms (CourseForm.tsx,
 * AnnouncementForm.tsx). The rule (README "Edits don't silently overwrite each other" and "Reload keeps your
 * changes"; audit C item 1 and the "no lost work" audit): an edit is saved against the version it was based on
 * (`version`, the record's `updatedAt`, sent back as `expectedUpdatedAt`); when someone else saved first the server
 * answers 409 with its saved record, nothing is saved and the form keeps what was typed (`conflict`: the server's
 * message, shown by EditConflict). Reload loads the record as it is saved now, keeps every field the admin changed
 * (react-hook-form `dirtyFields`), takes the saved values of the rest, lists the kept fields whose saved value
 * differs ("Saved version: …" with "Use saved version", KeptChanges in EditConflict.tsx) and makes that version the
 * base of the next save. A successful save (`rebase`) makes the saved record the base and puts back every field typed
 * while it was in flight, still unsaved, and clears the Reloaded box (its "Saved version" is no longer saved).
 * What stays in each form: its fetch of the saved record, its messages, what it does after a save.
 */
import { useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { ApiError } from '../../lib/api-client.ts';
import { toast } from '../../stores/toasts.ts';
import { reloadKeepingChanges, savedText, useKeptChanges, type KeptChangesState } from './EditConflict.tsx';

/** A record an admin form edits: its id and the `updatedAt` (ISO text) of the version saved; null when none is known. */
export interface Versioned { id: number; updatedAt?: string | null }

/** What useEditVersion needs of a form: `T` its values, `R` the record it edits. */
export interface EditVersionOptions<R extends Versioned, T extends FieldValues> {
  /** The record the form was opened on; null for a new one (the first save creates it). */
  record: R | null;
  /** The react-hook-form form. */
  form: Pick<UseFormReturn<T>, 'getValues' | 'reset' | 'setValue'>;
  /** The form's `formState.dirtyFields`, read in the form's render (react-hook-form computes it only when read). */
  dirtyFields: object;
  /** The form values of record `r` as saved. */
  formValues: (r: R) => T;
  /** The form's label of each saved field, for KeptChanges; a field without one (e.g. a send flag) is never listed. */
  labels: Partial<Record<keyof T, string>>;
  /** The key of the saved record in a 409 answer's body ('course', 'announcement'): only such a 409 is an edit conflict. */
  conflictKey: string;
  /** Reload's fetch of `r` as saved now; null when it was deleted. Rejects (an ApiError, or any error) when it cannot. */
  fetchLatest: (r: R) => Promise<R | null>;
  /** Called after a Reload, so the list behind the form shows the saved version too (a store's revalidate). */
  revalidate: () => unknown;
  /** Reload's error toast: `title`; `unexpected`, the text when the error has no server message; `deleted`, when fetchLatest gave null. */
  reloadError: { title: string; unexpected: string; deleted?: string };
}

/** The version state useEditVersion returns; functions are new each render, like the form's own. */
export interface EditVersion<R extends Versioned, T extends FieldValues> {
  /** The record the form edits: the one it was opened on, or the one its first save created; null before that. */
  current: R | null;
  /** `current` is not null: a save is a PUT checked against `version`. */
  editing: boolean;
  /** The `updatedAt` the form is based on (expectedUpdatedAt of the next save); replaced by Reload and by each save. */
  version: string | undefined;
  /** Saved at least once in this form: changes left in it are newer than that save. */
  savedHere: boolean;
  /** The 409's message while the conflict notice shows, else null. */
  conflict: string | null;
  /** A Reload is in flight. */
  reloading: boolean;
  /** What the KeptChanges box shows after Reload (useKeptChanges). */
  keptBox: KeptChangesState;
  /** Hides the conflict notice (a new save starts). */
  clearConflict(): void;
  /** True, and the conflict notice shows `e`'s message, when `e` is a 409 edit conflict of an edit; false for anything else. */
  conflicted(e: unknown): boolean;
  /** The form's values now as plain data, a deep copy (later typing does not change it). */
  snapshot(): T;
  /** The fields whose value in the form is not `base`'s, compared as JSON (a list field compares by content). */
  changedFrom(base: T): (keyof T)[];
  /**
   * `r` was just saved from the form values `sent`: the form now edits `r` at its version, shows it, and puts back every
   * field changed since `sent`, still unsaved; the Reloaded box goes. Returns those fields (empty: nothing newer).
   */
  rebase(r: R, sent: T): (keyof T)[];
  /** Reload after a conflict (see the module); errors end in the `reloadError` toast, never a rejection. */
  reload(): Promise<void>;
}

/** The version state of an admin edit form (see the module): `options` as EditVersionOptions describes. */
export function useEditVersion<R extends Versioned, T extends FieldValues>(options: EditVersionOptions<R, T>): EditVersion<R, T> {
  const { record, form, dirtyFields, formValues, labels, conflictKey, fetchLatest, revalidate, reloadError } = options;
  const [current, setCurrent] = useState(record);
  const [version, setVersion] = useState(record?.updatedAt ?? undefined);
  const [savedHere, setSavedHere] = useState(false);
  const [conflict, setConflict] = useState<string | null>(null);
  const [reloading, setReloading] = useState(false);
  const keptBox = useKeptChanges(form.setValue);
  const changedFrom = (base: T): (keyof T)[] => {
    const now = form.getValues();
    return (Object.keys(base) as (keyof T)[]).filter((k) => JSON.stringify(now[k]) !== JSON.stringify(base[k]));
  };
  return {
    current, editing: current != null, version, savedHere, conflict, reloading, keptBox, changedFrom,
    clearConflict: () => setConflict(null),
    conflicted: (e) => {
      if (!current || !(e instanceof ApiError) || e.status !== 409 || !(e.body as Record<string, unknown> | null)?.[conflictKey]) return false;
      setConflict(e.userMessage);
      return true;
    },
    snapshot: () => JSON.parse(JSON.stringify(form.getValues())) as T,
    rebase: (r, sent) => {
      const newer = changedFrom(sent);
      setCurrent(r);
      setVersion(r.updatedAt ?? undefined);
      setSavedHere(true);
      keptBox.clear();
      reloadKeepingChanges(form, formValues(r), Object.fromEntries(newer.map((k) => [k, true])));
      return newer;
    },
    reload: async () => {
      if (!current) return;
      setReloading(true);
      try {
        const latest = await fetchLatest(current);
        if (!latest) { toast({ title: reloadError.title, description: reloadError.deleted ?? reloadError.unexpected, variant: 'destructive' }); return; }
        const stored = formValues(latest);
        const differs = reloadKeepingChanges(form, stored, dirtyFields);
        keptBox.show(stored, differs.filter((k) => labels[k]).map((k) => ({ name: String(k), label: labels[k]!, saved: savedText(stored[k]) })));
        setVersion(latest.updatedAt ?? undefined);
        setConflict(null);
        void revalidate();
      } catch (e) {
        toast({ title: reloadError.title, description: e instanceof ApiError ? e.userMessage : reloadError.unexpected, variant: 'destructive' });
      } finally { setReloading(false); }
    },
  };
}
