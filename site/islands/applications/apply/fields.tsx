/**
 * The wizard's inputs, registered with react-hook-form through the form context: a labelled text input, a select
 * and a checkbox. Each takes the field's dotted path, gets its DOM id from it (domId) and shows the field's error
 * below it, wired with aria-invalid and aria-describedby (WCAG 3.3.1).
 */
import type { InputHTMLAttributes, ReactNode } from 'react';
import { get, useFormContext, type FieldPath } from 'react-hook-form';
import { Field } from '../../ui/Field.tsx';
import { domId, type ApplyForm } from './form.ts';

export type FormPath = FieldPath<ApplyForm>;

/** The error message of `path`, if any (re-renders the caller when errors change). */
export function useFieldError(path: FormPath): string | undefined {
  const { formState: { errors } } = useFormContext<ApplyForm>();
  return (get(errors, path) as { message?: string } | undefined)?.message;
}

/** aria-describedby for a field: its hint while there is no error, else its error. */
export function describedBy(path: string, error?: string, hint?: string): string | undefined {
  const ids = [hint && !error ? `${domId(path)}-hint` : '', error ? `${domId(path)}-error` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

type TextProps = { path: FormPath; label: string; hint?: string } & Pick<InputHTMLAttributes<HTMLInputElement>, 'type' | 'autoComplete' | 'inputMode' | 'placeholder' | 'maxLength' | 'spellCheck'>;

/** A text-like input (text, email, tel). */
export function TextField({ path, label, hint, type = 'text', ...rest }: TextProps) {
  const { register } = useFormContext<ApplyForm>();
  const error = useFieldError(path);
  return (
    <Field id={domId(path)} label={label} error={error} hint={hint}>
      <input className="input" id={domId(path)} type={type} {...rest} {...register(path)}
        aria-invalid={error ? true : undefined} aria-describedby={describedBy(path, error, hint)} />
    </Field>
  );
}

/** A select with a blank first option (`placeholder`). */
export function SelectField({ path, label, options, placeholder, autoComplete }: { path: FormPath; label: string; options: readonly { value: string; label: string }[]; placeholder: string; autoComplete?: string }) {
  const { register } = useFormContext<ApplyForm>();
  const error = useFieldError(path);
  return (
    <Field id={domId(path)} label={label} error={error}>
      <select className="input" id={domId(path)} {...register(path)} autoComplete={autoComplete} aria-invalid={error ? true : undefined} aria-describedby={describedBy(path, error)}>
        <option value="">{placeholder}</option>
        {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
    </Field>
  );
}

/** A checkbox whose label is `children` (payment terms, certification). */
export function CheckField({ path, children }: { path: 'payment.paymentTerms' | 'certification'; children: ReactNode }) {
  const { register } = useFormContext<ApplyForm>();
  const error = useFieldError(path);
  const id = domId(path);
  return (
    <div>
      {/* A 20 px box, and its label a tall target beside it (WCAG 2.5.8). */}
      <div className="flex items-start gap-3">
        <input id={id} type="checkbox" className="mt-2 h-5 w-5 shrink-0" {...register(path)}
          aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} />
        <label htmlFor={id} className="py-2 text-sm">{children}</label>
      </div>
      {/* Read through aria-describedby when the focus comes to the box; not an alert (one per field at once was noise). */}
      {error && <p id={`${id}-error`} className="field-error">{error}</p>}
    </div>
  );
}
