/**
 * Who may call which route (DESIGN §4 "Routes in §7"), as rules the route × role matrix checks every
 * enumerated route against:
 *   - public: no login needed (public reads, the auth entry points, the contact and assessment forms);
 *   - admin: anything under /api/admin or /api/external, and course/announcement writes
 *     (anonymous → 401, student → 403);
 *   - user: everything else under /api (anonymous → 401; a student using another student's ids → 404).
 * `classify()` returns null for a route outside /api that no rule covers — the matrix then fails and asks
 * the developer to add a rule here, so a new route cannot escape review.
 */
import type { RouteInfo } from './routes.ts';

export type Access = 'public' | 'user' | 'admin';
export interface Rule { access: Access; method: RegExp; path: RegExp; why: string }

const ANY = /^(GET|POST|PUT|PATCH|DELETE|ALL)$/;
const WRITE = /^(POST|PUT|PATCH|DELETE|ALL)$/;
const AUTH = '/api(?:/colfront)?/auth';

/** First matching rule wins. */
export const RULES: Rule[] = [
  { access: 'admin', method: ANY, path: /^\/api\/admin(\/|$)/, why: 'admin portal (spec §6)' },
  { access: 'admin', method: ANY, path: /^\/api\/external(\/|$)/, why: 'external administration system (DESIGN §4)' },
  { access: 'admin', method: WRITE, path: /^\/api(\/colfront)?\/courses(\/|$)/, why: 'course writes (DESIGN §4)' },
  { access: 'admin', method: WRITE, path: /^\/api\/announcements(\/|$)/, why: 'announcement writes (DESIGN §4)' },

  { access: 'public', method: /^GET$/, path: /^\/api(\/colfront)?\/courses(\/:[A-Za-z]+)?$/, why: 'public course reads' },
  { access: 'public', method: /^GET$/, path: /^\/api\/announcements(\/:[A-Za-z]+)?$/, why: 'public announcements' },
  { access: 'public', method: /^GET$/, path: /^\/api\/colfront\/health$/, why: 'health check (spec §4)' },
  { access: 'public', method: /^GET$/, path: /^\/api\/settings$/, why: 'public site settings (accreditation number, portal URL)' },
  { access: 'public', method: /^GET$/, path: /^\/api\/settings\/application-fee$/, why: 'the application fee applicants agree to (spec §9; money audit: shown = charged)' },
  { access: 'public', method: /^POST$/, path: new RegExp(`^${AUTH}/(login|logout|register|comprehensive-register)$`), why: 'auth entry points' },
  { access: 'public', method: /^GET$/, path: new RegExp(`^${AUTH}/me$`), why: 'session probe (401 when signed out)' },
  { access: 'public', method: /^(GET|POST)$/, path: new RegExp(`^${AUTH}/reset-password(/[^/]+)*$`), why: 'password reset by e-mailed link' },
  { access: 'public', method: /^POST$/, path: new RegExp(`^${AUTH}/verify-email$`), why: 'e-mail verification by e-mailed link (issue #12; may be opened on another device)' },
  { access: 'public', method: /^POST$/, path: /^\/api\/contact$/, why: 'contact form (DESIGN §4)' },
  { access: 'public', method: /^POST$/, path: /^\/api\/assessment-centre$/, why: 'assessment booking (spec §7)' },
  { access: 'public', method: /^POST$/, path: /^\/api\/sms\/inbound$/, why: 'SMS gateway webhook, authenticated by SMS_WEBHOOK_SECRET (issue #17)' },
  { access: 'public', method: /^(GET|POST)$/, path: /^\/api\/mail\/unsubscribe$/, why: 'announcement unsubscribe link (RFC 8058 one-click; POPIA s69), authenticated by its HMAC token; no cookies, exempt from the same-origin check' },
  { access: 'public', method: /^POST$/, path: /^\/api\/eligibility$/, why: 'APS and course eligibility calculator (issue #18; stores nothing)' },

  { access: 'public', method: /^POST$/, path: /^\/(login|auth|register|register-simple|forgot-password|reset-password|r)$/, why: 'a sign-in form posted without its JavaScript: 303 back to its page with ?nojs=1, body never read (site-build/serve.ts FORM_PAGES)' },

  { access: 'user', method: ANY, path: /^\/api\//, why: 'personal data needs a login (DESIGN §4)' },
];

/** The rule for `route`, or null when none matches (the developer must classify it). */
export function classify(route: RouteInfo): Rule | null {
  return RULES.find((r) => r.method.test(route.method) && r.path.test(route.path)) ?? null;
}
