/**
 * The choice the wizard offers when its draft and the server's went separate ways (README "Drafts from two tabs or
 * devices"; draft-store.ts): the message, when and at which step the other version was saved, and two buttons —
 * "Load the newer version" (replaces the form with it) and "Keep my changes" (saves the form over it). The pattern
 * of the admin forms' EditConflict (site/islands/admin/EditConflict.tsx): role="alert", amber card, focus moved to
 * it when it appears. Focus goes to the notice itself, not a button: it can appear while the person is typing, and
 * a Space or Enter meant for a field must not choose for them. Loaded only when a conflict happens (issue #17).
 */
import { useEffect, useRef } from 'react';
import { DRAFT_CHANGED, WIZARD_STEPS } from '#contracts/application-steps.ts';
import { formatDateTime } from '../../../lib/format.ts';

/** `savedAt`, `step`: the other version's save time (ISO 8601) and step (0-based); the handlers do the choosing. */
export function DraftConflict({ savedAt, step, onLoadTheirs, onKeepMine }: { savedAt: string; step: number; onLoadTheirs: () => void; onKeepMine: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.focus();
    box.current?.scrollIntoView({ block: 'nearest' });
  }, [savedAt]);
  const when = formatDateTime(savedAt);
  return (
    <div ref={box} tabIndex={-1} role="alert" aria-labelledby="draft-conflict-title" data-testid="draft-conflict"
      className="card mb-4 border-amber-400 p-3 text-sm outline-none focus-visible:ring-2 focus-visible:ring-amber-500 dark:border-amber-600">
      <p id="draft-conflict-title" className="font-medium">{DRAFT_CHANGED}</p>
      <p className="muted mt-1">
        The newer version was saved{when ? ` ${when}` : ''}{WIZARD_STEPS[step] ? `, at ${WIZARD_STEPS[step]}` : ''}. Load it to continue from
        there, or keep what you see here and save it in its place.
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="button" className="btn-secondary" onClick={onLoadTheirs}>Load the newer version</button>
        <button type="button" className="btn-primary" onClick={onKeepMine}>Keep my changes</button>
      </div>
    </div>
  );
}
