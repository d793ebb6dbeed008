/** Full-area loading spinner with a text alternative (`label`, default 'Loading…'): account pages while their data loads. */
export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div role="status" className="flex items-center justify-center gap-3 py-16">
      <span aria-hidden="true" className="h-8 w-8 animate-spin rounded-full border-4 border-slate-300 border-t-brand-700" />
      <span className="muted">{label}</span>
    </div>
  );
}
