/**
 * The two status alerts of spec §2 My Applications (documents_required, payment_pending), exact wording. Shown as
 * boxes in the page's reading order, not `role="alert"`: they are there when the page loads, and an assertive
 * announcement per application interrupted a screen reader on every visit (screen-reader audit, 2026-11-27).
 * Before them, on the list cards (/my-applications, the student dashboard), a third one when `rejectedDocuments`
 * (GET /api/applications: slots whose current document staff rejected) is not empty and the application is still
 * open: "A document was rejected. Open the application to replace it." with a link to /applications/{id} (phone audit
 * 2026-11-28: with the status still Under Review nothing on the card said so). Open is every spec §4 status but the
 * two decisions, accepted and rejected: pending, under_review, documents_required and payment_pending are still being
 * processed, and a replaced document can still count; once staff have decided, a red prompt to fix the application
 * asked for work that changes nothing (code review 2026-11-28: a document and then the application rejected still
 * showed it). Not a spec string; the detail page passes no `rejectedDocuments` (its checklist shows the reason and
 * the replace control).
 */
import type { ApplicationListItem as ApplicationItem } from '#contracts/application-views.ts';
import { appRef } from '../../lib/format.ts';

/** The alerts of application `app` (see the file comment); nothing when none applies. */
export function ApplicationAlerts({ app }: { app: Pick<ApplicationItem, 'id' | 'status' | 'paymentAmount'> & { rejectedDocuments?: readonly string[] | null } }) {
  const rejected = app.rejectedDocuments && app.rejectedDocuments.length > 0 && app.status !== 'accepted' && app.status !== 'rejected' ? (
    <div className="mt-4 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-950 dark:border-red-700 dark:bg-red-950 dark:text-red-50" data-testid="rejected-documents-alert">
      A document was rejected. <a href={`/applications/${app.id}`} className="font-semibold underline">Open the application to replace it<span className="sr-only"> ({appRef(app.id)})</span></a>.
    </div>
  ) : null;
  return <>{rejected}{statusAlert(app)}</>;
}

function statusAlert(app: Pick<ApplicationItem, 'status' | 'paymentAmount'>) {
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
