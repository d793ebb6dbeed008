/**
 * The "Check if you qualify" form (EligibilityCalculator.astro), loaded on first use (on-first-use.ts, issue #17)
 * and opened by the "Check if you qualify" button. Rows of subject +
 * percentage (up to NSC_MAX_SUBJECTS, 'Other' asks for a name), validated with the API's own NscResultsSchema
 * (zod/mini); errors sit on their fields and focus goes to the first one. POST /api/eligibility answers the APS
 * and the verdict per course, shown in a live region. Blank rows are ignored.
 */
import { api, ApiError } from '../../lib/api-client.ts';
import { NscResultsSchema } from '#contracts/nsc-schema.ts';
import type { EligibilityResponse } from '#contracts/nsc-schema.ts';
import { NSC_SUBJECTS } from '#contracts/nsc.ts';

const START_ROWS = 7;
let uid = 0;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text = ''): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text) e.textContent = text;
  return e;
}

/** One subject row: subject select (NSC subjects, 'Other' shows a name field), percentage, Remove; labels are set by renumber(). */
function newRow(): HTMLElement {
  const row = el('div', 'grid grid-cols-[1fr_6rem_auto] items-start gap-2');
  row.dataset.row = '';
  const label = (key: string, text: string) => { const l = el('label', 'sr-only', text); l.dataset.label = key; return l; };
  const subject = el('select', 'input');
  subject.name = 'subject';
  subject.append(new Option('Select a subject…', ''), ...NSC_SUBJECTS.map((s) => new Option(s, s)));
  const name = el('input', 'input mt-1');
  Object.assign(name, { name: 'name', placeholder: 'Name of the subject', maxLength: 60, hidden: true });
  const percent = el('input', 'input');
  Object.assign(percent, { name: 'percent', type: 'number', inputMode: 'numeric', min: '0', max: '100', step: '1', placeholder: '%' });
  const remove = el('button', 'btn-secondary px-3', 'Remove');
  remove.type = 'button';
  remove.dataset.remove = '';
  const removeLabel = el('span', 'sr-only');
  removeLabel.dataset.removeLabel = '';
  remove.append(removeLabel);
  const left = el('div');
  left.append(label('subject', 'Subject'), subject, label('name', 'Name of the subject'), name);
  const middle = el('div');
  middle.append(label('percent', 'Percentage'), percent);
  row.append(left, middle, remove);
  return row;
}

export function mountCalculator(root: HTMLElement): void {
  const form = root.querySelector<HTMLFormElement>('[data-qualify-form]')!;
  const rows = form.querySelector<HTMLElement>('[data-rows]')!;
  const addButton = form.querySelector<HTMLButtonElement>('[data-add]')!;
  const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const result = form.querySelector<HTMLElement>('[data-result]')!;
  const formError = form.querySelector<HTMLElement>('[data-form-error]')!;
  const max = Number(root.dataset.max) || 9;
  const courseId = root.dataset.courseId ? Number(root.dataset.courseId) : undefined;
  // On the catalogue the course names are read from its cards (`/courses/{id}` link, heading): a copy of them in
  // the HTML cost every visitor about 170 bytes of gzip (issue #17).
  const titles = new Map(Array.from(document.querySelectorAll<HTMLElement>('[data-course-card]'), (card): [number, string] => [
    Number(/\/courses\/(\d+)/.exec(card.querySelector<HTMLAnchorElement>('a[href^="/courses/"]')?.getAttribute('href') ?? '')?.[1]),
    card.querySelector('h2, h3')?.textContent ?? '',
  ]));

  const rowEls = () => [...rows.querySelectorAll<HTMLElement>('[data-row]')];
  const control = (row: HTMLElement, name: string) => row.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`)!;

  function renumber() {
    rowEls().forEach((row, i) => {
      for (const name of ['subject', 'name', 'percent']) {
        const c = control(row, name);
        const label = row.querySelector<HTMLLabelElement>(`[data-label="${name}"]`)!;
        if (!c.id) c.id = `qualify-${name}-${++uid}`;
        label.htmlFor = c.id;
        label.textContent = name === 'subject' ? `Subject ${i + 1}` : name === 'name' ? `Name of subject ${i + 1}` : `Percentage for subject ${i + 1}`;
      }
      row.querySelector('[data-remove-label]')!.textContent = ` subject ${i + 1}`;
    });
    addButton.disabled = rowEls().length >= max;
  }

  function addRow(focus: boolean) {
    if (rowEls().length >= max) return;
    const row = newRow();
    const subject = control(row, 'subject') as HTMLSelectElement;
    const name = control(row, 'name') as HTMLInputElement;
    subject.addEventListener('change', () => { name.hidden = subject.value !== 'Other'; });
    row.querySelector('[data-remove]')!.addEventListener('click', () => {
      const next = row.nextElementSibling ?? row.previousElementSibling;
      row.remove();
      if (rowEls().length === 0) addRow(false);
      renumber();
      (next ? control(next as HTMLElement, 'subject') : addButton).focus();
    });
    rows.append(row);
    renumber();
    if (focus) subject.focus();
  }

  function setError(c: HTMLElement, message?: string) {
    const id = `${c.id}-error`;
    document.getElementById(id)?.remove();
    if (!message) { c.removeAttribute('aria-invalid'); c.removeAttribute('aria-describedby'); return; }
    const p = el('p', 'field-error', message);
    p.id = id;
    c.after(p);
    c.setAttribute('aria-invalid', 'true');
    c.setAttribute('aria-describedby', id);
  }

  function collect(): { data?: { subject: string; percent: number; name: string }[]; first?: HTMLElement } {
    formError.hidden = true;
    const filled = rowEls().filter((r) => control(r, 'subject').value || control(r, 'percent').value.trim());
    for (const r of rowEls()) for (const n of ['subject', 'name', 'percent']) setError(control(r, n));
    if (filled.length === 0) {
      formError.textContent = 'Add at least one subject';
      formError.hidden = false;
      return { first: control(rowEls()[0], 'subject') };
    }
    const raw = filled.map((r) => ({ subject: control(r, 'subject').value, percent: control(r, 'percent').value.trim(), name: control(r, 'name').value }));
    const parsed = NscResultsSchema.safeParse(raw);
    if (parsed.success) return { data: parsed.data };
    let first: HTMLElement | undefined;
    for (const issue of parsed.error.issues) {
      const [index, field] = issue.path as [number | undefined, string | undefined];
      if (typeof index !== 'number' || !field) { formError.textContent = issue.message; formError.hidden = false; first ??= control(filled[0], 'subject'); continue; }
      const c = control(filled[index], field);
      if (c.getAttribute('aria-invalid')) continue;
      setError(c, issue.message);
      first ??= c;
    }
    return { first };
  }

  function show(res: EligibilityResponse) {
    result.replaceChildren();
    result.append(el('p', 'text-lg font-bold', `Your APS: ${res.aps}`));
    if (courseId) {
      const v = res.courses[0];
      const title = root.dataset.courseTitle ?? 'this course';
      if (v?.eligible) result.append(el('p', 'mt-1 font-medium text-green-800 dark:text-green-300', `You meet the entry requirements for ${title}.`));
      else {
        result.append(el('p', 'mt-1 font-medium text-amber-900 dark:text-amber-300', `You do not meet the entry requirements for ${title} yet:`));
        const ul = el('ul', 'mt-1 list-disc pl-6 text-sm');
        for (const r of v?.reasons ?? []) ul.append(el('li', '', r));
        result.append(ul);
      }
    } else {
      const yes = res.courses.filter((c) => c.eligible);
      result.append(el('p', 'mt-1 font-medium', `You meet the entry requirements of ${yes.length} of ${res.courses.length} courses.`));
      const ul = el('ul', 'mt-2 space-y-1 text-sm');
      for (const c of [...yes, ...res.courses.filter((x) => !x.eligible)]) {
        const li = el('li');
        const a = el('a', 'font-medium underline', titles.get(c.id) || `Course ${c.id}`);
        a.href = `/courses/${c.id}`;
        li.append(a, el('span', c.eligible ? 'text-green-800 dark:text-green-300' : 'muted', c.eligible ? ' — you qualify' : ` — not yet: ${c.reasons.join('; ')}`));
        ul.append(li);
      }
      result.append(ul);
    }
    result.focus();
  }

  addButton.addEventListener('click', () => addRow(true));
  let pending = false;
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (pending) return;
    const { data, first } = collect();
    if (!data) { first?.focus(); return; }
    pending = true;
    submit.disabled = true;
    submit.textContent = 'Checking...';
    try {
      show(await api<EligibilityResponse>('/api/eligibility', { method: 'POST', json: { subjects: data, ...(courseId ? { courseId } : {}) } }));
    } catch (err) {
      result.replaceChildren(el('p', 'field-error', err instanceof ApiError ? err.userMessage : 'Could not check your results right now. Please check your connection and try again.'));
      result.focus();
    } finally {
      pending = false;
      submit.disabled = false;
      submit.textContent = 'Check my results';
    }
  });

  for (let i = 0; i < START_ROWS; i++) addRow(false);
  form.hidden = false;
  control(rowEls()[0], 'subject').focus();
}

/** Opens the calculator in `root` ([data-on-use="eligibility"]) when its "Check if you qualify" button is clicked. */
export function enhance(root: HTMLElement): void {
  const open = root.querySelector<HTMLButtonElement>('[data-qualify-open]')!;
  open.addEventListener('click', () => { mountCalculator(root); open.hidden = true; }, { once: true });
}
