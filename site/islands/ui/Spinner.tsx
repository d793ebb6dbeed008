/**
 * Full-area loading spinner with a text alternative (`label`, default 'Loading…'): account pages while their data loads.
 * Shown, not spoken: no live region (no role="status"), because it stands in for the page while it loads, is read in
 * its place by anyone who gets there, and one page can pass through several ('Checking your session…', 'Loading your
 * application…'), each of which a live region announced on every visit (accessibility audit, WCAG 4.1.3: live regions
 * that talk over the applicant). What the page then shows, or an error, is what matters.
 */
export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="flex items-center justify-center gap-3 py-16">
      <span aria-hidden="true" className="h-8 w-8 animate-spin rounded-full border-4 border-slate-300 border-t-brand-700" />
      <span className="muted">{label}</span>
    </div>
  );
}
