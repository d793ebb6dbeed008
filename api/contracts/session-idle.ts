/**
 * The idle limits of a login and how the API tells the browser about them (DESIGN §4 Identity and sessions: "idle
 * 30 min for admins"; README "One login, two halves"). One definition: api/src/auth/session.ts ends sessions with
 * IDLE_LIMIT_MS, and every /api answer that went through its idle check carries, in a `Server-Timing` header
 * (W3C Server Timing; readable by the page through the Resource Timing API, PerformanceResourceTiming.serverTiming),
 * how long the login has left and the whole limit, so the "Are you still there?" warning of admin and signed-in
 * student pages (site/islands/ui/idle-watch.ts) needs no second copy of the numbers. Plain constants: no zod here, so the
 * browser's small chunk that reads them pulls in no schema.
 */

/** Idle limit of a login by role, in ms: 30 minutes for admins, 2 hours for students (ASVS 5.0 V7.3.1). */
export const IDLE_LIMIT_MS = { admin: 30 * 60_000, student: 2 * 3600_000 } as const;

/**
 * Request header (value '1') the site's api() (site/lib/api-client.ts) puts on a request made when the person has not
 * touched the page (no key, pointer, wheel, touch or scroll) for BACKGROUND_AFTER_MS: a poll of an unattended tab. The
 * idle check answers it with the time left but does not count it as activity, so a dashboard left open on screen
 * still logs out after its idle limit (DESIGN §4 "idle 30 min for admins"; ASVS 5.0 V7.3.1). A client that omits it
 * only keeps its own login alive longer, never someone else's.
 */
export const BACKGROUND_HEADER = 'X-Background-Request';
/** ms without input in the page after which the site's requests are background ones (BACKGROUND_HEADER). */
export const BACKGROUND_AFTER_MS = 60_000;

/** Server-Timing metric whose `dur` is the ms left before the login ends for idleness (after this request). */
export const IDLE_LEFT_METRIC = 'idle';
/** Server-Timing metric whose `dur` is the login's whole idle limit in ms (IDLE_LIMIT_MS of its role). */
export const IDLE_LIMIT_METRIC = 'idle-limit';

/**
 * The Server-Timing header value for a login with `leftMs` ms left of its idle limit `limitMs` (both whole ms,
 * negative clamped to 0), e.g. `idle;dur=1800000, idle-limit;dur=1800000`.
 */
export function idleServerTiming(leftMs: number, limitMs: number): string {
  return `${IDLE_LEFT_METRIC};dur=${Math.max(0, Math.round(leftMs))}, ${IDLE_LIMIT_METRIC};dur=${Math.max(0, Math.round(limitMs))}`;
}
