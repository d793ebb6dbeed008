/**
 * Every API route, mounted per feature. `/api/colfront/*` and `/api/auth/*` are the same handlers as
 * their twins (DESIGN §4). The security suite enumerates the routes from here.
 */
import type { Express } from 'express';
import type passport from 'passport';
import type { AppDeps } from './app.ts';
import { authRouter } from './features/auth/auth.routes.ts';
import { coursesReadRouter } from './features/courses/courses.routes.ts';
import { applicationsRouter, adminApplicationsRouter } from './features/applications/applications.routes.ts';
import { healthRouter } from './features/health/health.routes.ts';
import { announcementsReadRouter } from './features/announcements/announcements.routes.ts';
import { contactRouter, adminContactRouter } from './features/contact/contact.routes.ts';
import { assessmentRouter, adminAssessmentRouter } from './features/assessment/assessment.routes.ts';

export function mountRoutes(app: Express, deps: AppDeps, pp: passport.PassportStatic): void {
  const auth = authRouter(deps, pp);
  app.use('/api/auth', auth);
  app.use('/api/colfront/auth', auth);

  app.use('/api/colfront/health', healthRouter(deps));

  const courses = coursesReadRouter(deps);
  app.use('/api/courses', courses);
  app.use('/api/colfront/courses', courses);

  app.use('/api/announcements', announcementsReadRouter(deps));

  const applications = applicationsRouter(deps);
  app.use('/api/applications', applications);
  app.use('/api/colfront/applications', applications);
  app.use('/api/admin/applications', adminApplicationsRouter(deps));

  app.use('/api/contact', contactRouter(deps));
  app.use('/api/admin/contact-messages', adminContactRouter(deps));
  app.use('/api/assessment-centre', assessmentRouter(deps));
  app.use('/api/admin/assessment-bookings', adminAssessmentRouter(deps));
}
