/**
 * The one "could not load" box (issue #15 point 5) of the admin and external islands: an alert with an optional
 * title, the message and, when `onRetry` is given, a 'Try again' button.
 */
import type { ReactElement } from 'react';
export function ErrorState({ title, message, onRetry }: { title?: string; message: string; onRetry?: () => void }): ReactElement {
  return (
    <div role="alert" className="card border-red-300 p-4 text-red-800 dark:border-red-700 dark:text-red-200">
      {title && <p className="font-semibold">{title}</p>}
      <p>{message}</p>
      {onRetry && <button type="button" className="btn-secondary mt-3" onClick={onRetry}>Try again</button>}
    </div>
  );
}
