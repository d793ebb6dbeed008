/**
 * Work a route does after it has answered (security audit F3; OWASP ASVS 5.0 V6, account enumeration: an answer
 * must not tell, by its content or its timing, whether an account exists). POST /reset-password answers at once, the same
 * for every address, and only then looks the address up, creates the token and queues the mail in the transactional
 * outbox (password-reset.service.ts requestPasswordReset): before, only an address with an account waited for that
 * work, 8–16 ms longer at the median on PGlite and 15–32 ms on PostgreSQL (bench/reset-timing.ts, 3 runs); after,
 * the two medians are within the run-to-run noise (−5…+0.4 ms). The work still uses the database: on PGlite (one
 * connection) a request sent right after an answered one waits behind it, whatever it asks about (N=200: 33 ms at the
 * median after an address with an account, 20 ms after one without), so there the difference moved to the next
 * request rather than vanished; on PostgreSQL (a pool) it did not (22 vs 24 ms).
 *
 * The work does not depend on the client: it runs in this process whether or not the connection stays open. Each
 * piece is tracked until it settles, so a graceful stop (server.ts `close`) waits for it before the mail worker and
 * the database stop (`afterAnswerSettled`), and tests can wait for it. A failure is logged, never thrown: one line
 * "[auth] <what> failed after the answer: …" with describeErrorForLog (a database error without its parameters, which
 * would hold the mail body and its link). A process killed between the answer and the commit (a few milliseconds)
 * loses that one link; the person asks again.
 */
import { describeErrorForLog } from '../../http/error-log.ts';

/** Work started by afterAnswer that has not settled yet. */
const running = new Set<Promise<void>>();

/**
 * Starts `work` now, without waiting for it, tracked until it settles. A rejection is logged as one error line naming
 * `what` (the caller's words, e.g. "password reset request for t***@example.com": no full address, token or link)
 * with describeErrorForLog; it is never rethrown, so it cannot become an unhandled rejection.
 */
export function afterAnswer(what: string, work: () => Promise<unknown>): void {
  const done: Promise<void> = (async () => { await work(); })()
    .catch((err) => { console.error(`[auth] ${what} failed after the answer: ${describeErrorForLog(err)}`); })
    .finally(() => { running.delete(done); });
  running.add(done);
}

/**
 * Resolves once every piece of afterAnswer work has settled, including work started while waiting. Never rejects
 * (failures were logged). Used by the graceful stop (server.ts) and by tests that read what the work wrote.
 */
export async function afterAnswerSettled(): Promise<void> {
  while (running.size > 0) await Promise.all([...running]);
}
