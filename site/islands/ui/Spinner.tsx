/**
 * Full-area loading spinner with a text alternative (`label`, default 'Loading…'): account pages while their data loads.
 * Shown, not spoken: no live region (no role="status"), because it stands in for the page while it loads, is read in
 * its place by anyone who gets there, and one page can pass through several ('Checking your session…', 'Loading your
 * application…'), each of which a live region announced on every visit (accessibility audit, WCAG 4.1.3: live regions
 * that talk over the applicant). What the page then shows, or an error, is what matters. A spinner still shown after
 * 15 s (a request or a part of the page that never arrives; audit of cheap phones, November 2026) offers a Reload
 * link and the office phone (content/site.json), shown by CSS alone, so also when the page's code never ran.
 */
import { telephone } from '../../../content/site.json';

export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="py-16 text-center">
      <div className="flex items-center justify-center gap-3">
        <span aria-hidden="true" className="h-8 w-8 animate-spin rounded-full border-4 border-slate-300 border-t-brand-700" />
        <span className="muted">{label}</span>
      </div>
      {/* Revealed by CSS after 15 s (global.css .late-offer), so also in the pre-rendered page whose code never ran. */}
      <p className="late-offer mt-4 text-sm muted">
        Still loading? Check your connection and reload, or call <a className="underline" href={`tel:${telephone.replace(/\s/g, '')}`}>{telephone}</a>.{' '}
        <a href="" className="btn-secondary ml-2">Reload</a>
      </p>
    </div>
  );
}
