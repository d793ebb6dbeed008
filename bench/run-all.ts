/**
 * `npm run bench`: runs every benchmark in turn — API reads/logins/submits/memory (bench/api.ts, PGlite and
 * PostgreSQL), site build and publish-to-live (bench/site-build.ts), and page weight/Lighthouse
 * (bench/pages.ts, when present) — each printing its own figures and side-by-side ratios. JSON copies of the
 * figures land in bench/out/; data budget per journey (bench/data-budget.ts) and SMS per minute on PostgreSQL
 * (bench/sms.ts). Set BENCH_ONLY=api,site,pages,budget,sms to run a subset.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib.ts';

const only = process.env.BENCH_ONLY?.split(',');
const steps: [string, string][] = [['api', 'bench/api.ts'], ['site', 'bench/site-build.ts'], ['pages', 'bench/pages.ts'], ['budget', 'bench/data-budget.ts'], ['sms', 'bench/sms.ts']];
const summary: string[] = [];
for (const [name, file] of steps) {
  if (only && !only.includes(name)) continue;
  if (!fs.existsSync(path.join(ROOT, file))) { summary.push(`skip ${name} (${file} not present)`); continue; }
  console.info(`\n=== bench: ${name} (${file}) ===`);
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [file], { cwd: ROOT, stdio: 'inherit' });
  summary.push(`${r.status === 0 ? 'ok  ' : 'FAIL'} ${name} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
}
console.info(`\n${summary.join('\n')}`);
