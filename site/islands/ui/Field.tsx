/** Labelled form field with its error message wired by aria-describedby (WCAG 3.3.1). */
import type { ReactNode } from 'react';

/** A label, the control (children), a hint and the error message (aria-describedby via fieldProps). */
export function Field({ id, label, error, children, hint }: { id: string; label: string; error?: string; hint?: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="label">{label}</label>
      {children}
      {hint && !error && <p id={`${id}-hint`} className="mt-1 text-xs muted">{hint}</p>}
      {/* No role=alert: the focus goes to the first invalid field, whose aria-describedby reads this; six alerts at once were noise. */}
      {error && <p id={`${id}-error`} className="field-error">{error}</p>}
    </div>
  );
}

/** Props for an input inside <Field>: invalid state and description ids. */
export function fieldProps(id: string, error?: string) {
  return { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-error` : undefined } as const;
}
