/**
 * Registration proof-of-work (issue #12 finding 13): when the API answers 429 `challenge_required` (many
 * registrations from one network: a school lab, a mobile carrier's shared address) the browser solves the
 * altcha challenge it was sent and repeats the request with the solution as `altcha`. The solver is loaded
 * with a dynamic import only then, so the registration pages' JavaScript does not grow; it is self-hosted
 * (altcha-lib with WebCrypto), no third-party request. Throws what `send` throws otherwise, or the original
 * 429 when the challenge cannot be solved.
 */
import { ApiError } from './api-client.ts';

/** Calls `send()`; on a challenge, solves it and calls `send(altchaPayload)` once more. `onSolving` runs while solving. */
export async function withProofOfWork<T>(send: (altcha?: string) => Promise<T>, onSolving?: () => void): Promise<T> {
  try {
    return await send();
  } catch (err) {
    const challenge = err instanceof ApiError && err.status === 429 && err.body?.error?.code === 'challenge_required' ? (err.body as any).challenge : null;
    if (!challenge) throw err;
    onSolving?.();
    const [{ solveChallenge }, { deriveKey }] = await Promise.all([import('altcha-lib'), import('altcha-lib/algorithms/web/pbkdf2')]);
    const solution = await solveChallenge({ challenge, deriveKey, timeout: 120_000 });
    if (!solution) throw err;
    return send(btoa(JSON.stringify({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution })));
  }
}
