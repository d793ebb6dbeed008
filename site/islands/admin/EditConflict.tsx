/**
 * The notice an admin form shows when its save was refused with 409 because someone else changed the record since
 * the form was opened (course and announcement edits; README "Edits don't silently overwrite each other"): the
 * server's message, what Reload does, and a Reload button, which takes focus when the notice appears so a keyboard
 * or screen-reader user lands on the way out.
 */
import { useEffect, useRef } from 'react';

/** `message`: the 409's text; `reloading`: a reload is in flight; `className`: extra grid classes of the form. */
export function EditConflict({ message, reloading, onReload, className = '' }: { message: string; reloading: boolean; onReload: () => void; className?: string }) {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => { button.current?.focus(); }, [message]);
  return (
    <div role="alert" className={`card border-amber-400 p-3 text-sm dark:border-amber-600 ${className}`} data-testid="edit-conflict">
      <p className="font-medium">{message}</p>
      <p className="muted mt-1">Reload replaces what you typed here with the latest version; then make your change again.</p>
      <button ref={button} type="button" className="btn-secondary mt-2" onClick={onReload} disabled={reloading}>{reloading ? 'Reloading…' : 'Reload'}</button>
    </div>
  );
}
