/**
 * `npm test` (issue #2): typecheck, vitest on PGlite, again on PostgreSQL when DATABASE_URL is set, the newcomer
 * stage (issue #11: a fresh clone started with the README's command, then every DATA_DIR form), the scale stage
 * (issue #13: two nodes behind HAProxy; skipped with a message without PostgreSQL or haproxy), then Playwright
 * against the production build. Exits non-zero on the first failing stage; prints a timing summary.
 */
import { spawnSync } from 'node:child_process';

const stages: { name: string; cmd: string[]; env: NodeJS.ProcessEnv }[] = [];
const { DATABASE_URL, ...envNoDb } = process.env;
stages.push({ name: 'typecheck (tsc --noEmit)', cmd: ['npx', 'tsc', '--noEmit', '-p', 'tsconfig.json'], env: envNoDb });
stages.push({ name: 'unit + API tests (PGlite)', cmd: ['npx', 'vitest', 'run'], env: envNoDb });
if (DATABASE_URL) stages.push({ name: 'unit + API tests (PostgreSQL)', cmd: ['npx', 'vitest', 'run'], env: { ...process.env } });
else console.info('DATABASE_URL is not set: skipping the PostgreSQL run of the API tests.');
// Two nodes behind HAProxy on PostgreSQL + s3rver (issue #13); the script skips itself, saying why, without haproxy or PostgreSQL.
if (process.env.SKIP_SCALE !== '1') stages.push({ name: 'scale (two nodes, HAProxy, PostgreSQL, S3)', cmd: ['node', 'tests/scale/two-nodes.ts'], env: { ...process.env } });
if (process.env.SKIP_NEWCOMER !== '1') stages.push({ name: 'newcomer (fresh clone, README start command, DATA_DIR matrix)', cmd: ['node', 'tests/newcomer/newcomer.ts'], env: envNoDb });
if (process.env.SKIP_E2E !== '1') stages.push({ name: 'browser tests (Playwright, production build)', cmd: ['npx', 'playwright', 'test'], env: envNoDb });

const summary: string[] = [];
for (const s of stages) {
  console.info(`\n=== ${s.name} ===`);
  const t0 = Date.now();
  const r = spawnSync(s.cmd[0], s.cmd.slice(1), { stdio: 'inherit', env: s.env });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  summary.push(`${r.status === 0 ? 'ok  ' : 'FAIL'} ${s.name} (${secs} s)`);
  if (r.status !== 0) { console.error(`\n${summary.join('\n')}`); process.exit(r.status ?? 1); }
}
console.info(`\n${summary.join('\n')}`);
