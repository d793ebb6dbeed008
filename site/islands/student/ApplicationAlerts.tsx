/**
 * The two status alerts of spec §2 My Applications (documents_required, payment_pending), exact wording. Shown as
 * boxes in the page's reading order, not `role="alert"`: they are there when the page loads, and an assertive
 * announcement per application interrupted a screen reader on every visit (screen-reader audit, 2026-11-27).
 */
import type { ApplicationListItem as ApplicationItem } from '#contracts/application-views.ts';

export function ApplicationAlerts({ app }: { app: Pick<ApplicationItem, 'id' | 'status' | 'paymentAmount'> }) {
  if (app.status === 'documents_required') {
    return (
      <div className="mt-4 rounded-md border border-orange-300 bg-orange-50 p-3 text-sm text-orange-950 dark:border-orange-700 dark:bg-orange-950 dark:text-orange-50">
        Additional documents are required for your application. Please upload the required documents.
      </div>
    );
  }
  if (app.status === 'payment_pending') {
    return (
      <div className="mt-4 rounded-md border border-purple-300 bg-purple-50 p-3 text-sm text-purple-950 dark:border-purple-700 dark:bg-purple-950 dark:text-purple-50">
        Payment of R{app.paymentAmount} is required to complete your application.
      </div>
    );
  }
  return null;
}
