/**
 * NSC results editor for any react-hook-form form (issue #18 point 1): rows of subject (NSC_SUBJECTS; 'Other'
 * asks for its name) and percentage, up to NSC_MAX_SUBJECTS, added and removed by button; shows the APS as you
 * type. `name` is the field array's path (e.g. 'academicHistory.nscResults'); the form's resolver validates the rows
 * with NscResultsSchema and this component shows each row's errors on its controls. DOM ids: `${idPrefix}-{i}-subject`.
 * Where the list is narrower than 28rem (a phone) the subject takes a line of its own above percentage and Remove: in
 * one row the subject box was squeezed to about 50 px and showed one letter of the chosen subject (phone audit, 360 px).
 */
import { get, useFieldArray, useWatch, type Control, type FieldValues, type UseFormRegister, type FieldErrors } from 'react-hook-form';
import { APS_MAX, computeAps, NSC_MAX_SUBJECTS, NSC_SUBJECTS } from '#contracts/nsc.ts';
import { Field, fieldProps } from './Field.tsx';

/** A row as the form holds it: percent as typed. */
export interface NscRow { subject: string; percent: string | number; name: string }

export function NscResultsFields({ control, register, errors, name, idPrefix = 'nsc', legend = 'NSC (Grade 12) results (optional)' }: {
  control: Control<any>; register: UseFormRegister<any>; errors: FieldErrors<FieldValues>; name: string; idPrefix?: string; legend?: string;
}) {
  const { fields, append, remove } = useFieldArray({ control, name });
  const rows = (useWatch({ control, name }) ?? []) as NscRow[];
  const arrayError = (get(errors, name) as { message?: string; root?: { message?: string } } | undefined);
  const listMessage = arrayError?.message ?? arrayError?.root?.message;
  const rowError = (i: number, k: keyof NscRow) => (get(errors, `${name}.${i}.${k}`) as { message?: string } | undefined)?.message;
  const valid = rows.filter((r) => r.subject && String(r.percent).trim() !== '' && !Number.isNaN(Number(r.percent)));
  const aps = computeAps(valid.map((r) => ({ subject: r.subject, percent: Number(r.percent) })));
  return (
    <fieldset className="rounded-md border border-slate-200 p-4 dark:border-slate-700" data-nsc-results>
      <legend className="px-1 font-semibold">{legend}</legend>
      <p className="text-sm muted">Up to {NSC_MAX_SUBJECTS} subjects with your final percentages. Your APS is the total of your best six subjects (Life Orientation excluded), at most {APS_MAX}.</p>
      {listMessage && <p className="field-error" role="alert">{listMessage}</p>}
      <ul className="@container mt-3 space-y-3">
        {fields.map((f, i) => {
          const id = `${idPrefix}-${i}`;
          return (
            <li key={f.id} className="grid grid-cols-[minmax(0,1fr)_6rem_auto] items-end gap-2 @max-md:grid-cols-[minmax(0,1fr)_auto]">
              <div className="@max-md:col-span-2">
                <Field id={`${id}-subject`} label={`Subject ${i + 1}`} error={rowError(i, 'subject')}>
                  <select className="input" {...fieldProps(`${id}-subject`, rowError(i, 'subject'))} {...register(`${name}.${i}.subject`)}>
                    <option value="">Select a subject…</option>
                    {NSC_SUBJECTS.map((s) => <option key={s} value={s}>{s}</option>)}
                  </select>
                </Field>
                {rows[i]?.subject === 'Other' && (
                  <Field id={`${id}-name`} label={`Name of subject ${i + 1}`} error={rowError(i, 'name')}>
                    <input className="input" maxLength={60} {...fieldProps(`${id}-name`, rowError(i, 'name'))} {...register(`${name}.${i}.name`)} />
                  </Field>
                )}
              </div>
              <Field id={`${id}-percent`} label="Percentage" error={rowError(i, 'percent')}>
                <input className="input" type="number" min={0} max={100} step={1} inputMode="numeric" {...fieldProps(`${id}-percent`, rowError(i, 'percent'))} {...register(`${name}.${i}.percent`)} />
              </Field>
              <button type="button" className="btn-secondary" onClick={() => remove(i)}>Remove<span className="sr-only"> subject {i + 1}</span></button>
            </li>
          );
        })}
      </ul>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button type="button" className="btn-secondary" disabled={fields.length >= NSC_MAX_SUBJECTS}
          onClick={() => append({ subject: '', percent: '', name: '' }, { shouldFocus: true, focusName: `${name}.${fields.length}.subject` })}>Add subject</button>
        {valid.length > 0 && <p className="text-sm font-medium" aria-live="polite" data-testid="nsc-aps">APS so far: {aps}</p>}
      </div>
    </fieldset>
  );
}
