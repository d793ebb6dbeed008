/**
 * Every API route, mounted per feature. `/api/colfront/*` and `/api/auth/*` are the same handlers as
 * their twins (DESIGN §4). The security suite enumerates the routes from here.
 */
import type { Express, RequestHandler } from 'express';
import type passport from 'passport';
import type { AppDeps } from './deps.ts';
import { authRouter } from './features/auth/auth.routes.ts';
import { profileRouter } from './features/profile/profile.routes.ts';
import { coursesReadRouter, coursesAdminRouter } from './features/courses/courses.routes.ts';
import { draftsRouter } from './features/drafts/drafts.routes.ts';
import { uploadsRouter } from './features/uploads/uploads.routes.ts';
import { tusRouter } from './features/uploads/tus.routes.ts';
import { documentChecklistRouter, adminDocumentReviewsRouter } from './features/document-reviews/document-reviews.routes.ts';
import { notificationsRouter } from './features/notifications/notifications.routes.ts';
import { applicationsRouter, adminApplicationsRouter } from './features/applications/applications.routes.ts';
import { healthRouter } from './features/health/health.routes.ts';
import { announcementsReadRouter, announcementsAdminRouter, announcementsAdminListRouter } from './features/announcements/announcements.routes.ts';
import { adminRouter } from './features/admin/admin.routes.ts';
import { contactRouter, adminContactRouter } from './features/contact/contact.routes.ts';
import { assessmentRouter, adminAssessmentRouter } from './features/assessment/assessment.routes.ts';
import { externalRouter } from './features/external/external.routes.ts';
import { adminSettingsRouter, publicSettingsRouter } from './features/settings/settings.routes.ts';
import { smsRouter } from './features/sms/sms.routes.ts';
import { unsubscribeRouter } from './features/announcements/unsubscribe.routes.ts';
import { eligibilityRouter } from './features/eligibility/eligibility.routes.ts';
import { walkInRouter } from './features/walk-in/walk-in.routes.ts';
import { adminErasureRouter } from './features/erasure/erasure.routes.ts';
import { adminAccessLog } from './http/admin-access-log.ts';

/**
 * Mounts every feature router under /api (and the /api/colfront aliases of spec §4) on `app`; `publicCache` goes in
 * front of the anonymous public reads, and adminAccessLog in front of everything (one line per admin read of
 * applicant records). Every path mounted here is classified in security/policy.ts.
 */
export function mountRoutes(app: Express, deps: AppDeps, pp: passport.PassportStatic, publicCache?: RequestHandler): void {
  app.use('/api', adminAccessLog);
  const auth = authRouter(deps, pp);
  app.use('/api/auth', auth);
  app.use('/api/colfront/auth', auth);
  app.use('/api/profile', profileRouter(deps));

  app.use('/api/colfront/health', healthRouter(deps));

  if (publicCache) app.use(['/api/courses', '/api/colfront/courses', '/api/announcements'], publicCache);
  const courses = coursesReadRouter(deps);
  app.use('/api/courses', courses);
  app.use('/api/colfront/courses', courses);

  app.use('/api/announcements', announcementsReadRouter(deps));
  app.use('/api/courses', coursesAdminRouter(deps));
  app.use('/api/announcements', announcementsAdminRouter(deps));
  app.use('/api/admin/announcements', announcementsAdminListRouter(deps));
  app.use('/api/admin/walk-in', walkInRouter(deps));
  app.use('/api/admin/settings', adminSettingsRouter(deps));
  app.use('/api/admin/erasure-requests', adminErasureRouter(deps));
  app.use('/api/admin', adminRouter(deps));

  const drafts = draftsRouter(deps);
  app.use('/api/applications/draft', drafts);
  app.use('/api/colfront/applications/draft', drafts);
  const applications = applicationsRouter(deps);
  app.use('/api/applications', applications);
  app.use('/api/colfront/applications', applications);
  app.use('/api/admin/applications', adminApplicationsRouter(deps));
  const checklist = documentChecklistRouter(deps);
  app.use('/api/applications', checklist);
  app.use('/api/colfront/applications', checklist);
  app.use('/api/admin/applications', adminDocumentReviewsRouter(deps));
  app.use('/api/uploads/tus', tusRouter(deps));
  app.use('/api/uploads', uploadsRouter(deps));
  const notifications = notificationsRouter(deps);
  app.use('/api/notifications', notifications);
  app.use('/api/colfront/notifications', notifications);

  app.use('/api/contact', contactRouter(deps));
  app.use('/api/admin/contact-messages', adminContactRouter(deps));
  app.use('/api/assessment-centre', assessmentRouter(deps));
  app.use('/api/admin/assessment-bookings', adminAssessmentRouter(deps));

  app.use('/api/external', externalRouter(deps));
  app.use('/api/settings', publicSettingsRouter(deps));
  app.use('/api/sms', smsRouter(deps));
  app.use('/api/mail/unsubscribe', unsubscribeRouter(deps));
  app.use('/api/eligibility', eligibilityRouter(deps));
}
