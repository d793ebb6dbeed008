/**
 * SQL injection scan (issue #8; `npm run test:sqlmap`, outside `npm test`): starts the production server
 * (PGlite, or PostgreSQL with SQLMAP_DB=postgres) on a bench port, signs in a student and an admin, and runs
 * sqlmap (`apt-get install sqlmap`) --batch against query, path and JSON-body parameters of the routes
 * those roles use. Exit 0 when sqlmap reports no injectable parameter anywhere; prints one line per target.
 * SQLMAP_LEVEL / SQLMAP_RISK raise the depth (defaults 2 / 1).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { startChild, freshPgDatabase, tmpDataDir, newApplicant, applicationBody, client, ADMIN } from './lib.ts';

if (spawnSync('sqlmap', ['--version']).status !== 0) {
  console.error('sqlmap is not installed: apt-get install -y sqlmap');
  process.exit(2);
}
const pgdb = process.env.SQLMAP_DB === 'postgres' ? await freshPgDatabase('sqlmap') : null;
const dataDir = tmpDataDir('eng-f-sqlmap');
const srv = await startChild({ DATA_DIR: dataDir, DATABASE_URL: pgdb?.url ?? '', TRUST_PROXY: '1', LOGIN_RATE_LIMIT: '100000' });
let found = 0;
try {
  const student = await newApplicant(srv.url);
  const applied = await student.c.req('POST', '/api/applications', applicationBody(1, student.upload!, student.upload!));
  const appId = applied.body.application?.id ?? 1;
  const admin = client(srv.url);
  await admin.req('POST', '/api/auth/login', ADMIN);
  const u = srv.url;
  const json = (o: unknown) => JSON.stringify(o).replace(/"(\w+)":"([^"]*)"/g, '"$1":"$2*"');
  const targets: { who: string; cookie: string; url: string; method?: string; data?: string }[] = [
    { who: 'anonymous', cookie: '', url: `${u}/api/courses/1*` },
    { who: 'anonymous', cookie: '', url: `${u}/api/courses?all=1*` },
    { who: 'anonymous', cookie: '', url: `${u}/api/auth/login`, method: 'POST', data: '{"email":"a@example.com*","password":"secret123*"}' },
    { who: 'student', cookie: student.c.cookie, url: `${u}/api/applications/${appId}*` },
    { who: 'student', cookie: student.c.cookie, url: `${u}/api/applications/draft?key=apply-1*` },
    { who: 'student', cookie: student.c.cookie, url: `${u}/api/notifications/1*/read`, method: 'PUT', data: '{}' },
    { who: 'student', cookie: student.c.cookie, url: `${u}/api/profile`, method: 'PUT', data: json({ firstName: 'Thandi', lastName: 'Mokoena', phone: '0821234567', city: 'Thohoyandou' }) },
    { who: 'admin', cookie: admin.cookie, url: `${u}/api/admin/applications?status=pending*&search=thandi*` },
    { who: 'admin', cookie: admin.cookie, url: `${u}/api/admin/students?search=thandi*` },
    { who: 'admin', cookie: admin.cookie, url: `${u}/api/admin/applications/${appId}*/status`, method: 'PUT', data: json({ status: 'under_review', notes: 'sqlmap' }) },
    { who: 'admin', cookie: admin.cookie, url: `${u}/api/courses/1*`, method: 'PUT', data: json({ title: 'Course', description: 'Text', level: 'certificate', department: 'Business', tuitionFee: 'R 1', startDate: 'Jan' }) },
  ];
  for (const t of targets) {
    const args = ['--batch', '--flush-session', `--output-dir=${dataDir}/sqlmap`, `--level=${process.env.SQLMAP_LEVEL ?? 2}`, `--risk=${process.env.SQLMAP_RISK ?? 1}`,
      '--dbms=PostgreSQL', '--technique=BEUST', '--time-sec=2', '--threads=2', '-u', t.url,
      '--headers=X-Forwarded-For: 10.200.0.1\nContent-Type: application/json'];
    if (t.cookie) args.push(`--cookie=${t.cookie}`);
    if (t.method) args.push(`--method=${t.method}`);
    if (t.data) args.push(`--data=${t.data}`);
    const t0 = Date.now();
    const r = spawnSync('sqlmap', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 15 * 60_000 });
    const out = `${r.stdout}\n${r.stderr}`;
    const vulnerable = /is vulnerable|appears to be injectable|sqlmap identified the following injection point/i.test(out);
    const clean = /do not appear to be injectable|not injectable/i.test(out);
    if (vulnerable) found++;
    console.info(`[sqlmap] ${t.who.padEnd(9)} ${t.method ?? 'GET'} ${t.url.replace(u, '')} → ${vulnerable ? 'INJECTABLE' : clean ? 'not injectable' : 'inconclusive'} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    if (vulnerable || (!clean && process.env.SQLMAP_VERBOSE)) console.info(out.split('\n').filter((l) => /\[(CRITICAL|WARNING|INFO)\]|Parameter:|Type:|Payload:/.test(l)).slice(-15).join('\n'));
  }
} finally {
  await srv.stop();
  await pgdb?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
console.info(found ? `[sqlmap] FAIL: ${found} injectable target(s)` : '[sqlmap] PASS: no injectable parameter found');
process.exit(found ? 1 : 0);
