/**
 * After a save, what the person typed meanwhile survives (phone audit, 2026-11-27, HIGH 2: on /profile with a 2 s
 * round trip, an Address line 1 typed while "Saving..." was wiped by `reset(server copy)` when the answer came; the
 * form then read as unchanged, no leave warning, and the server never got the address).
 *
 * Use: `const sent = sentValues(getValues())` when the submission starts, then, when the answer arrives,
 * `resetKeepingEdits(form, saved, sent)` instead of `reset(saved)`. The form's saved state (its default values,
 * what "dirty" compares with) becomes `saved`; every top-level field whose current value differs from what was
 * sent (the person edited it during the save) keeps its current value, and so stays dirty: Save stays
 * enabled and the leave warning stays on. Fields not edited since take the server's values (its trimming, its
 * normalising). A field array (NSC subjects) counts as one field: a row added or changed while saving keeps the
 * whole list as typed. Values are compared as JSON (plain form values: strings, numbers, booleans, arrays, objects).
 */
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';

/** A deep copy of the form's values at the moment of submission (getValues shares nested objects with the form). */
export function sentValues<T extends FieldValues>(values: T): T {
  return JSON.parse(JSON.stringify(values)) as T;
}

/**
 * `form`: the useForm() methods (getValues, reset, setValue). `saved`: the values as the server stored them, in the
 * form's shape. `sent`: `sentValues(getValues())` taken when the submission started. Returns the names of the
 * fields kept as the person typed them (empty when nothing was edited during the save).
 */
export function resetKeepingEdits<T extends FieldValues>(form: Pick<UseFormReturn<T>, 'getValues' | 'reset' | 'setValue'>, saved: T, sent: T): string[] {
  const now = sentValues(form.getValues());
  const kept = Object.keys(now).filter((name) => JSON.stringify(now[name]) !== JSON.stringify(sent[name]));
  if (!kept.length) { form.reset(saved); return kept; }
  // The values stay as they are on screen (a reset that replaced them redrew a field array's new row empty); only
  // the saved state changes. Then each field not edited takes the server's value, shouldDirty recomputing isDirty.
  form.reset(saved, { keepValues: true });
  for (const name of Object.keys(saved)) {
    if (kept.includes(name) || JSON.stringify(now[name]) === JSON.stringify(saved[name])) continue;
    form.setValue(name as Path<T>, saved[name] as PathValue<T, Path<T>>, { shouldDirty: true });
  }
  return kept;
}
