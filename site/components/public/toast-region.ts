/**
 * Renders the shared $toasts store into the script-only toast region of ToastRegion.astro (issue #3 JS budget; spec
 * §9: at most 5, 5000 ms each). A toast stays while hovered or focused and has a Close button. Loaded with the form
 * that shows toasts (on-first-use.ts, issue #17), or at once when an earlier page flashed one; F8 is handled there.
 */
import { $toasts, dismissToast, showFlashedToast, TOAST_CLASSES, type Toast } from '../../stores/toasts.ts';

let mounted = false;

/** Starts rendering into `[data-toast-region]` (once per page; later calls do nothing) and shows a flashed toast. */
export function mountToastRegion(): void {
  const region = document.querySelector<HTMLElement>('[data-toast-region]');
  if (mounted || !region) return;
  mounted = true;
  const list = region.querySelector<HTMLOListElement>('[data-toast-list]')!;
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  const arm = (id: number) => { clearTimeout(timers.get(id)); timers.set(id, setTimeout(() => dismissToast(id), 5000)); };

  function render(t: Toast): HTMLLIElement {
    const li = document.createElement('li');
    li.dataset.toastId = String(t.id);
    li.dataset.testid = 'toast';
    li.setAttribute('role', t.variant === 'destructive' ? 'alert' : 'status');
    li.className = `relative rounded-lg border p-4 pr-8 shadow-lg ${TOAST_CLASSES[t.variant ?? 'default']}`;
    const title = document.createElement('p');
    title.className = 'font-semibold'; title.textContent = t.title;
    li.append(title);
    if (t.description) { const d = document.createElement('p'); d.className = 'mt-1 text-sm'; d.textContent = t.description; li.append(d); }
    const close = document.createElement('button');
    close.type = 'button'; close.setAttribute('aria-label', 'Close'); close.textContent = '×';
    close.className = 'absolute right-2 top-2 rounded px-1 text-lg leading-none opacity-80 hover:opacity-100';
    close.addEventListener('click', () => dismissToast(t.id));
    li.append(close);
    const hold = () => clearTimeout(timers.get(t.id));
    li.addEventListener('mouseenter', hold); li.addEventListener('focusin', hold);
    li.addEventListener('mouseleave', () => arm(t.id)); li.addEventListener('focusout', () => arm(t.id));
    arm(t.id);
    return li;
  }

  $toasts.subscribe((toasts) => {
    const ids = new Set(toasts.map((t) => String(t.id)));
    list.querySelectorAll<HTMLElement>('[data-toast-id]').forEach((el) => { if (!ids.has(el.dataset.toastId!)) { clearTimeout(timers.get(Number(el.dataset.toastId))); el.remove(); } });
    for (const t of toasts) if (!list.querySelector(`[data-toast-id="${t.id}"]`)) list.append(render(t));
  });
  showFlashedToast();
}
