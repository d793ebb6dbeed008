/**
 * Progressive enhancement for the public forms (contact, assessment centre) without React, to keep those
 * pages within the 10 KB JS budget (issue #3). The zod schema (api/contracts, the one the API uses) is
 * loaded on first interaction. On submit: every message goes on its field (aria-invalid + aria-describedby, as
 * ui/Field.tsx: no role=alert, which read all twelve of an empty booking at once; accessibility audit 2026-11-28,
 * WCAG 4.1.3), focus moves to the first invalid field, which reads its message, the button is busy while pending (aria-disabled + aria-busy, presses
 * ignored, and it keeps the focus, as ui/BusyButton.tsx: a `disabled` button dropped the focus to <body> after a
 * send, phone audit 2026-11-27), and one idempotency key per submission makes a double-click store once.
 * After a failed submit, fields re-validate as you type.
 * While a control differs from the page's HTML (typed in, picked, ticked) and it was not sent, leaving the page
 * asks first with the browser's "Leave site?" prompt (issue #16, no lost work); a sent form is reset, so it does not.
 */
import { api, ApiError } from '../../lib/api-client.ts';

interface Schema {
  safeParse(v: unknown): { success: true; data: any } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}
export interface EnhanceOptions {
  endpoint: string;
  loadSchema: () => Promise<Schema>;
  /** Field names in page order (focus goes to the first invalid one). */
  order: readonly string[];
  pendingLabel: string;
  onSuccess: (data: Record<string, unknown>) => void;
  onFailure: (message: string | null) => void;
  /** Fields whose message depends on another field's value, re-checked with it after a failed submit (a date → its time slot). */
  related?: Readonly<Record<string, readonly string[]>>;
}

function newKey(): string {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

export function enhanceForm(form: HTMLFormElement, o: EnhanceOptions): void {
  let schemaPromise: Promise<Schema> | null = null;
  const schema = () => (schemaPromise ??= o.loadSchema().catch((e) => { schemaPromise = null; throw e; }));
  let key = newKey();
  let pending = false;
  let submitted = false;
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const idleLabel = button.textContent ?? '';
  button.disabled = false;
  const busy = (on: boolean) => {
    if (on) { button.setAttribute('aria-disabled', 'true'); button.setAttribute('aria-busy', 'true'); }
    else { button.removeAttribute('aria-disabled'); button.removeAttribute('aria-busy'); }
  };
  button.addEventListener('click', (e) => { if (pending) e.preventDefault(); });

  const control = (name: string) => form.elements.namedItem(name) as HTMLInputElement | null;
  const values = () => Object.fromEntries(o.order.map((n) => [n, control(n)?.value ?? '']));

  function setError(name: string, message: string | undefined) {
    const el = control(name);
    if (!el) return;
    const errId = `${el.id}-error`;
    let p = document.getElementById(errId);
    const hint = el.getAttribute('aria-describedby')?.split(' ').filter((x) => x && x !== errId) ?? [];
    if (message) {
      if (!p) {
        p = document.createElement('p');
        p.id = errId; p.className = 'field-error';
        el.closest('[data-field]')?.append(p);
      }
      if (p.textContent !== message) p.textContent = message;
      el.setAttribute('aria-invalid', 'true');
      el.setAttribute('aria-describedby', [errId, ...hint].join(' '));
    } else {
      p?.remove();
      el.removeAttribute('aria-invalid');
      if (hint.length) el.setAttribute('aria-describedby', hint.join(' ')); else el.removeAttribute('aria-describedby');
    }
  }

  function show(fields: Record<string, string>, focus: boolean): boolean {
    o.order.forEach((n) => setError(n, fields[n]));
    const first = o.order.find((n) => fields[n]);
    if (first && focus) control(first)?.focus();
    return Boolean(first);
  }

  async function check(): Promise<{ data?: Record<string, unknown>; fields: Record<string, string> }> {
    const r = (await schema()).safeParse(values());
    if (r.success) return { data: r.data, fields: {} };
    const fields: Record<string, string> = {};
    for (const i of r.error.issues) { const k = String(i.path[0] ?? ''); if (!(k in fields)) fields[k] = i.message; }
    return { fields };
  }

  const changed = () => Array.from(form.elements).some((el) => {
    if (el instanceof HTMLSelectElement) return el.selectedIndex !== Math.max(0, Array.from(el.options).findIndex((op) => op.defaultSelected));
    if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) return el.checked !== el.defaultChecked;
    return (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && el.value !== el.defaultValue;
  });
  addEventListener('beforeunload', (e) => { if (changed()) { e.preventDefault(); e.returnValue = ''; } });

  form.addEventListener('focusin', () => { void schema().catch(() => {}); }, { once: true });
  form.addEventListener('input', async (e) => {
    if (!submitted) return;
    const name = (e.target as HTMLInputElement).name;
    const { fields } = await check();
    for (const n of [name, ...(o.related?.[name] ?? [])]) setError(n, fields[n]);
  });
  form.addEventListener('change', async (e) => {
    if (!submitted) return;
    const name = (e.target as HTMLInputElement).name;
    const { fields } = await check();
    for (const n of [name, ...(o.related?.[name] ?? [])]) setError(n, fields[n]);
  });

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (pending) return;
    pending = true;
    busy(true);
    button.textContent = o.pendingLabel;
    try {
      submitted = true;
      let result;
      try { result = await check(); } catch { o.onFailure('Could not load the form. Please check your connection and try again.'); return; }
      if (!result.data) { show(result.fields, true); return; }
      try {
        await api(o.endpoint, { method: 'POST', json: { ...result.data, idempotencyKey: key } });
      } catch (err) {
        const apiErr = err instanceof ApiError ? err : null;
        show(apiErr?.fields ?? {}, true);
        o.onFailure(apiErr ? apiErr.userMessage : null);
        return;
      }
      key = newKey();
      submitted = false;
      form.reset();
      show({}, false);
      o.onSuccess(result.data);
    } finally {
      pending = false;
      busy(false);
      button.textContent = idleLabel;
    }
  });
}
