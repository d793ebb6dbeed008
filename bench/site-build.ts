/**
 * Site build benchmark (issue #8): `astro build` time for catalogues of 12, 100 and 1,000 active courses
 * (BENCH_SITE_SIZES to change), fitted as fixed cost + ms per page (least squares over the runs; target
 * ≤ 50 ms per page), then the publish-to-live latency: an admin creates a course on a running server
 * (SITE_BUILD=auto, debounce 200 ms) and we poll until /courses/{id} answers 200.
 * The 12-course build also carries <script>/onerror= payloads in a course and an announcement and fails
 * if the built HTML contains them unescaped (issue #8 XSS, "renders as text on the public site").
 * Data lives in a throw-away PostgreSQL database (DATABASE_URL or postgres://postgres@127.0.0.1:5432/test).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import pg from 'pg';
import { ROOT, ADMIN, startChild, freshPgDatabase, tmpDataDir, client, fmt } from './lib.ts';

const sizes = (process.env.BENCH_SITE_SIZES ?? '12,100,1000').split(',').map(Number);
const XSS = '<script>alert("xss")</script><img src=x onerror=alert(1)>';

function build(apiUrl: string, outDir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn('npx', ['astro', 'build', '--silent'], { cwd: ROOT, env: { ...process.env, SITE_API_URL: apiUrl, SITE_OUT_DIR: outDir, ASTRO_TELEMETRY_DISABLED: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => { err = (err + d).slice(-3000); });
    p.on('exit', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`astro build failed (${code}): ${err}`))));
  });
}

const htmlFiles = (dir: string) => (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.html')).map((f) => path.join(dir, f));

async function setCatalogue(url: string, n: number) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`DELETE FROM courses WHERE title LIKE 'Bench course %'`);
  await c.query(`UPDATE courses SET is_active = true`);
  const { rows } = await c.query(`SELECT count(*)::int AS n FROM courses`);
  const have = rows[0].n as number;
  if (n < have) await c.query(`UPDATE courses SET is_active = false WHERE id NOT IN (SELECT id FROM courses ORDER BY id LIMIT $1)`, [n]);
  else if (n > have) {
    await c.query(`INSERT INTO courses (title, description, level, duration, tuition_fee, price, start_date, department, is_active)
      SELECT 'Bench course ' || g, 'A generated course for the build benchmark, number ' || g || '.', 'certificate', 12, 'R 12 000', 12000, 'February 2027', 'Business', true
      FROM generate_series(1, $1) g`, [n - have]);
  }
  if (n === sizes[0]) {
    await c.query(`UPDATE courses SET title = $1 WHERE id = (SELECT min(id) FROM courses)`, [`Safety ${XSS}`]);
    await c.query(`INSERT INTO announcements (title, content, active) VALUES ($1, $2, true)`, [`Notice ${XSS}`, `Body ${XSS}`]);
  }
  await c.end();
}

const db = await freshPgDatabase('benchsite');
const dataDir = tmpDataDir('eng-f-site');
const runs: { courses: number; pages: number; ms: number }[] = [];
let xssOk: boolean | null = null;
try {
  const srv = await startChild({ DATA_DIR: dataDir, DATABASE_URL: db.url, SITE_BUILD: 'never' });
  try {
    for (const n of sizes) {
      await setCatalogue(db.url, n);
      const out = path.join(dataDir, `dist-${n}`);
      const ms = await build(srv.url, out);
      const files = htmlFiles(out);
      runs.push({ courses: n, pages: files.length, ms });
      console.info(`[bench:site] ${n} courses → ${files.length} pages in ${fmt(ms / 1000)} s (${fmt(ms / files.length)} ms/page overall)`);
      if (n === sizes[0]) {
        const raw = files.filter((f) => fs.readFileSync(f, 'utf8').includes(XSS) || /<script>alert\("xss"\)/.test(fs.readFileSync(f, 'utf8')));
        const escaped = files.filter((f) => fs.readFileSync(f, 'utf8').includes('&lt;script&gt;alert(')).length;
        xssOk = raw.length === 0 && escaped > 0;
        console.info(`[bench:site] XSS payload shown as text on ${escaped} pages, raw on ${raw.length}${raw.length ? `: ${raw.map((f) => path.relative(out, f)).join(', ')}` : ''}`);
      }
      fs.rmSync(out, { recursive: true, force: true });
    }
  } finally { await srv.stop(); }

  // Least-squares fit ms = fixed + perPage × pages.
  const nPts = runs.length;
  const mx = runs.reduce((s, r) => s + r.pages, 0) / nPts;
  const my = runs.reduce((s, r) => s + r.ms, 0) / nPts;
  const perPage = nPts > 1 ? runs.reduce((s, r) => s + (r.pages - mx) * (r.ms - my), 0) / runs.reduce((s, r) => s + (r.pages - mx) ** 2, 0) : my / mx;
  const fixed = my - perPage * mx;
  console.info(`[bench:site] fit: fixed ${fmt(fixed / 1000)} s + ${fmt(perPage)} ms per page (target ≤ 50 ms/page)`);

  // Publish-to-live.
  await setCatalogue(db.url, 14);
  const live = await startChild({ DATA_DIR: tmpDataDir('eng-f-live'), DATABASE_URL: db.url, SITE_BUILD: 'auto', SITE_BUILD_DEBOUNCE_MS: '200', WAIT_FOR_SITE: '1' }, { timeoutMs: 600_000 });
  let publishMs = NaN;
  try {
    const admin = client(live.url);
    const login = await admin.req('POST', '/api/auth/login', ADMIN);
    if (login.status !== 200) throw new Error(`admin login ${login.status}`);
    const t0 = performance.now();
    const created = await admin.req('POST', '/api/courses', { title: 'Published by the benchmark', description: 'Publish-to-live probe.', level: 'certificate', duration: 6, department: 'Business', tuitionFee: 'R 5 000', startDate: 'March 2027', isActive: true });
    if (created.status !== 201) throw new Error(`create course ${created.status} ${JSON.stringify(created.body)}`);
    const id = created.body.course?.id ?? created.body.id;
    while (performance.now() - t0 < 600_000) {
      const r = await fetch(`${live.url}/courses/${id}/`);
      if (r.status === 200 && (await r.text()).includes('Published by the benchmark')) { publishMs = performance.now() - t0; break; }
      const pc = new pg.Client({ connectionString: db.url });
      await pc.connect();
      const last = (await pc.query(`SELECT status, left(error, 300) AS error FROM site_builds ORDER BY id DESC LIMIT 1`)).rows[0];
      await pc.end();
      if (last?.status === 'error' || last?.status === 'failed') { console.info(`[bench:site] the publish rebuild failed: ${last.error}`); break; }
      await new Promise((r2) => setTimeout(r2, 250));
    }
    console.info(`[bench:site] publish-to-live: ${fmt(publishMs / 1000)} s (debounce 200 ms + one build)`);
  } finally { await live.stop(); }
  fs.mkdirSync(path.join(ROOT, 'bench/out'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'bench/out/site-build.json'), JSON.stringify({ at: new Date().toISOString(), runs, fixedMs: fixed, perPageMs: perPage, publishMs, xssOk }, null, 2));
  if (xssOk === false) process.exitCode = 1;
} finally {
  await db.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
