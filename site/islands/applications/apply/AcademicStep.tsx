/**
 * Step 2 'Academic History' (spec §2, §5): the high school (required) and a college or university (optional;
 * sent only when any field is filled), and optional NSC results (issue #18) for the APS and the course's requirements. Years are chosen from YEAR_MIN (1990) to the current year (DESIGN §6), newest first; the end year is never before the start.
 */
import { YEAR_MAX, YEAR_MIN } from '#contracts/application-steps.ts';
import { useFormContext } from 'react-hook-form';
import { SelectField, TextField } from './fields.tsx';
import { NscResultsFields } from '../../ui/NscResultsFields.tsx';

const YEARS = Array.from({ length: YEAR_MAX - YEAR_MIN + 1 }, (_, i) => String(YEAR_MAX - i)).map((y) => ({ value: y, label: y }));

export function AcademicStep() {
  const { control, register, formState: { errors } } = useFormContext();
  return (
    <div className="space-y-6">
      <InstitutionFields which="highSchool" />
      <NscResultsFields control={control} register={register} errors={errors} name="academicHistory.nscResults" idPrefix="f-nsc" />
      <InstitutionFields which="college" />
    </div>
  );
}

function InstitutionFields({ which }: { which: 'highSchool' | 'college' }) {
  const p = `academicHistory.${which}` as const;
  const school = which === 'highSchool';
  return (
    <fieldset className="rounded-md border border-slate-200 p-4 dark:border-slate-700">
      <legend className="px-1 font-semibold">{school ? 'High school' : 'College or university (optional)'}</legend>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField path={`${p}.name`} label={school ? 'School name' : 'Institution name'} />
        <TextField path={`${p}.qualification`} label="Qualification" placeholder={school ? 'e.g. National Senior Certificate' : ''} />
        <TextField path={`${p}.city`} label="City" />
        <TextField path={`${p}.country`} label="Country" />
        <SelectField path={`${p}.from`} label="Start year" options={YEARS} placeholder="Select year" />
        <SelectField path={`${p}.to`} label="End year" options={YEARS} placeholder="Select year" />
        <TextField path={`${p}.grade`} label="Grade or average" placeholder="e.g. 72%" />
      </div>
    </fieldset>
  );
}
