/**
 * What SESSION_SECRET to start a copied PostgreSQL database with (npm run restore --url, npm run db:to-postgres).
 * The copy holds the source's `app_secrets` table: the fingerprint of the secret its nodes signed sessions with
 * (`session-fingerprint`) and, if it was ever started without SESSION_SECRET, the generated secret (`session`). A node
 * on PostgreSQL whose secret has another fingerprint refuses to start (auth/session-secret.ts resolveSessionSecret),
 * so the hint follows the same rule.
 */
import pg from 'pg';
import { secretFingerprint } from '../auth/session-secret.ts';

/** Which secret the copy's stored fingerprint belongs to: none stored yet, the generated one in app_secrets, or a SESSION_SECRET. */
export type CopiedSecret = 'none' | 'generated' | 'configured';

/**
 * Reads `app_secrets` of the PostgreSQL database at `url` and tells which secret its fingerprint is: 'none' (no
 * fingerprint stored, or no table: any SESSION_SECRET, or none, is accepted and stored at the first start),
 * 'generated' (the fingerprint is that of the generated secret stored beside it: start without SESSION_SECRET) or
 * 'configured' (a SESSION_SECRET the copy does not hold: start with that same one). Rejects when it cannot connect.
 */
export async function copiedSessionSecret(url: string): Promise<CopiedSecret> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const table = await client.query(`select to_regclass('public.app_secrets') as t`);
    if (!table.rows[0]?.t) return 'none';
    const { rows } = await client.query<{ name: string; value: string }>(`select name, value from app_secrets where name in ('session', 'session-fingerprint')`);
    const fingerprint = rows.find((r) => r.name === 'session-fingerprint')?.value;
    if (!fingerprint) return 'none';
    const generated = rows.find((r) => r.name === 'session')?.value;
    return generated && secretFingerprint(generated) === fingerprint ? 'generated' : 'configured';
  } finally { await client.end().catch(() => {}); }
}

/**
 * The one-line advice for `copied` (copiedSessionSecret), to print after the start command: which SESSION_SECRET the
 * nodes of the copy must be started with, and how to change it (SESSION_SECRET_ROTATE=1 on one node, once; README
 * "Running several nodes"). `source` names where the secret came from ('the backed-up nodes', 'the embedded database');
 * 'unknown' (app_secrets could not be read) gives the rule for both cases.
 */
export function sessionSecretAdvice(copied: CopiedSecret | 'unknown', source: string): string {
  const rotate = 'To use a new SESSION_SECRET instead (production needs one), start one node once with it and SESSION_SECRET_ROTATE=1 (everyone logs in again), then start the others with it.';
  if (copied === 'generated') return `SESSION_SECRET: start without it: ${source} used the generated secret, which the copy holds (app_secrets). ${rotate}`;
  if (copied === 'configured') return `SESSION_SECRET: start with the same SESSION_SECRET as ${source}: the copy keeps its fingerprint, and a node with another secret, or none, is refused. ${rotate}`;
  if (copied === 'unknown') return `SESSION_SECRET: start with the same SESSION_SECRET as ${source}, or without one if they used the generated secret (a node with another secret is refused). ${rotate}`;
  return 'SESSION_SECRET: the copy has no session secret yet; the first node started stores its own (set, or generated when unset), and every other node needs the same one.';
}
