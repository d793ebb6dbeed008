/**
 * No input lost before hydration (issue #14 point 12). On a slow phone a person types into the pre-rendered
 * inputs before the island's JavaScript runs; react-hook-form then writes its default values into those inputs
 * and the typing is gone. Forms start instead from what is already in the page: `typedValues(defaults, idOf)`
 * reads each field's server-rendered element (by id) at the island's first render and returns the defaults
 * with the typed values in their place. On the server (no document) it returns `defaults` unchanged.
 */
export function typedValues<T extends Record<string, unknown>>(defaults: T, idOf: (name: keyof T & string) => string): T {
  if (typeof document === 'undefined') return defaults;
  const out: Record<string, unknown> = { ...defaults };
  for (const name of Object.keys(defaults) as (keyof T & string)[]) {
    const el = document.getElementById(idOf(name));
    if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) { if (el.checked) out[name] = true; }
    else if ((el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) && el.value !== '') out[name] = el.value;
  }
  return out as T;
}
