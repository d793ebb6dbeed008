/**
 * The contact form's behaviour (ContactForm.astro; spec §2 Contact, issue #3), loaded on first use
 * (on-first-use.ts, issue #17): validated with ContactMessageSchema (the API's) → POST /api/contact, confirmed in
 * place and by toast, then reset.
 */
import { enhanceForm } from './enhance-form.ts';
import { mountToastRegion } from './toast-region.ts';
import { toast } from '../../stores/toasts.ts';

/** Enhances `form` ([data-on-use="contact"]). */
export function enhance(form: HTMLElement): void {
  mountToastRegion();
  const status = form.querySelector<HTMLElement>('[data-contact-status]')!;
  enhanceForm(form as HTMLFormElement, {
    endpoint: '/api/contact',
    loadSchema: async () => (await import('#contracts/contact.ts')).ContactMessageSchema,
    order: ['firstName', 'lastName', 'email', 'phone', 'message'],
    pendingLabel: 'Sending...',
    onSuccess: (data) => {
      status.innerHTML = '';
      const p = document.createElement('p');
      p.className = 'rounded-md border border-green-700 bg-green-50 p-3 text-green-950 dark:bg-green-950 dark:text-green-50';
      p.textContent = `Thank you, ${String(data.firstName)}. Your message has been sent — we will reply by e-mail within two working days.`;
      status.append(p);
      toast({ title: 'Message sent', description: 'Thank you. We will reply within two working days.', variant: 'success' });
    },
    onFailure: (message) => {
      status.innerHTML = '';
      toast({ title: 'Message not sent', description: message ?? 'Could not reach the college. Please check your connection and try again.', variant: 'destructive' });
    },
  });
}
