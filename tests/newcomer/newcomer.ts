/**
 * The newcomer stage of `npm test` (issue #11): does what a new developer does with the README.
 *
 * 1. Clones this repository (its committed HEAD) into a temporary folder.
 * 2. Runs the README's first command exactly (`npm install && npm start`), with no settings but a free `PORT`.
 * 3. Checks that every public page answers 200 (the sitemap's pages plus the access pages), that dot-files
 *    (/.env, /.git/config, /.data) answer 404, and that a student can register, upload a document and
 *    download the same bytes again. The install must not print npm's advisory about dependencies whose
 *    install scripts `allowScripts` does not approve: npm 12 skips those scripts (the `node` package's
 *    preinstall is what gives `npm start` its Node 24).
 * 4. Repeats the start (`npm start`, installed already) with `DATA_DIR` in every form the README allows:
 *    inside the checkout, outside it, sharing a prefix with the checkout's path, with a space, under a
 *    dot-folder, and relative. Those starts run three at a time, and none of their site builds may fail (a
 *    retried build still delays the first page) or use the checkout's shared `.astro/.prerender` folder.
 * 5. Starts `npm start` once more and sends SIGTERM to the npm process only, as a service manager or `kill <pid>`
 *    does: the server must log "SIGTERM: shutting down", close its port and be gone, as must npm (an `sh -c` between
 *    npm and node used to drop the signal: node was reparented to PID 1 and kept serving; operations audit).
 *
 * Prints, per run, the seconds `npm install` took and the seconds from `npm start` to the first page.
 * Exits 1 when any run fails. Env: NEWCOMER_INSTALL_TIMEOUT_S (default 900), NEWCOMER_TIMEOUT_S (from `npm start`
 * to the first page, default 420), NEWCOMER_PARALLEL (default 3).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TIMEOUT_MS = Number(process.env.NEWCOMER_TIMEOUT_S ?? 420) * 1000;
const INSTALL_TIMEOUT_MS = Number(process.env.NEWCOMER_INSTALL_TIMEOUT_S ?? 900) * 1000;
/** The banner npm prints when it runs the start script: the install part of the command is over. */
const START_BANNER = /> (?:exec )?node api\/src\/server\.ts/;
/** How long, ms, the stop after a SIGTERM to `npm start` may take before the check fails (a bound, polled; the server's own SHUTDOWN_TIMEOUT_MS is 10 s). */
const STOP_BOUND_MS = 60_000;
const PARALLEL = Number(process.env.NEWCOMER_PARALLEL ?? 3);
/** npm 11.16+'s advisory for dependencies whose install scripts package.json's `allowScripts` does not approve (npm 12 blocks them). */
const UNAPPROVED_SCRIPTS = /\d+ packages? (?:has|have) install scripts not yet covered by allowScripts[^\n]*/;
const ACCESS_PAGES = ['/login', '/register', '/register-simple', '/forgot-password', '/auth', '/apply', '/my-applications', '/dashboard/student', '/404-does-not-exist'];
/** The smallest file the upload check accepts as a PDF (magic bytes `%PDF-`). */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

interface Run { label: string; dataDir?: string; command: string }
interface Result { label: string; ok: boolean; installS?: number; firstPageS?: number; error?: string }

/** The README's first command line: the first line of its first ```sh block, without its comment. */
export function readmeStartCommand(readme: string): string {
  const block = /```sh\n([^\n]+)/.exec(readme);
  if (!block) throw new Error('README.md has no ```sh block with the start command');
  return block[1].replace(/\s+#.*$/, '').trim();
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    }).on('error', reject);
  });
}

/** Only what a shell on a fresh machine has: no DATABASE_URL, DATA_DIR, NODE_ENV or test settings. */
function bareEnv(port: number, dataDir?: string): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'LANG', 'TERM', 'TMPDIR', 'USER', 'SHELL', 'npm_config_cache', 'npm_config_registry'];
  const env: NodeJS.ProcessEnv = {};
  for (const k of keep) if (process.env[k]) env[k] = process.env[k];
  // npm puts the project's node_modules/.bin (Node 24) first on PATH for `npm test`; a newcomer's shell has the system's.
  env.PATH = (env.PATH ?? '').split(path.delimiter).filter((p) => !p.includes(`${path.sep}node_modules${path.sep}`)).join(path.delimiter);
  env.PORT = String(port);
  if (dataDir) env.DATA_DIR = dataDir;
  return env;
}

/** Resolves with the time `npm start` began (ms since epoch) once `/` answers 200. */
async function waitForFirstPage(base: string, child: ChildProcess, log: () => string, started: () => number | null): Promise<number> {
  const t0 = Date.now();
  while (started() === null) {
    if (child.exitCode !== null) throw new Error(`the command exited with ${child.exitCode} before npm start:\n${log().slice(-3000)}`);
    if (Date.now() - t0 > INSTALL_TIMEOUT_MS) throw new Error(`npm start did not begin within ${INSTALL_TIMEOUT_MS / 1000} s:\n${log().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const deadline = started()! + TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the start command exited with ${child.exitCode}:\n${log().slice(-3000)}`);
    try {
      const res = await fetch(`${base}/`, { signal: AbortSignal.timeout(5000) });
      if (res.status === 200) return started()!;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`no page ${TIMEOUT_MS / 1000} s after npm start:\n${log().slice(-3000)}`);
}

async function expectStatus(base: string, p: string, want: number): Promise<void> {
  const res = await fetch(base + p, { redirect: 'manual' });
  if (res.status !== want) throw new Error(`GET ${p} answered ${res.status}, expected ${want}`);
}

/** Every public page: the pages in the sitemap (rewritten to this server) and the access pages. */
async function publicPages(base: string): Promise<string[]> {
  const index = await (await fetch(`${base}/sitemap-index.xml`)).text();
  const pages = new Set<string>(['/']);
  for (const [, loc] of index.matchAll(/<loc>([^<]+)<\/loc>/g)) {
    const xml = await (await fetch(base + new URL(loc).pathname)).text();
    for (const [, page] of xml.matchAll(/<loc>([^<]+)<\/loc>/g)) pages.add(new URL(page).pathname);
  }
  if (pages.size < 10) throw new Error(`the sitemap lists only ${pages.size} pages`);
  return [...pages];
}

/** Registers a student, uploads a PDF and downloads it again, all through the API as the browser does. */
async function studentUploadsAndDownloads(base: string): Promise<void> {
  const headers = { 'content-type': 'application/json', origin: base };
  const email = `newcomer.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;
  const reg = await fetch(`${base}/api/auth/register`, {
    method: 'POST', headers,
    body: JSON.stringify({ firstName: 'Thandi', lastName: 'Mokoena', email, password: 'secret123', confirmPassword: 'secret123', phone: '0821234567', terms: true }),
  });
  if (reg.status !== 201) throw new Error(`register answered ${reg.status}: ${await reg.text()}`);
  const { token } = await reg.json() as { token: string };
  const auth = { authorization: `Bearer ${token}`, origin: base };
  const form = new FormData();
  form.append('file', new Blob([PDF], { type: 'application/pdf' }), 'id-document.pdf');
  const up = await fetch(`${base}/api/uploads`, { method: 'POST', headers: auth, body: form });
  if (up.status !== 201) throw new Error(`upload answered ${up.status}: ${await up.text()}`);
  const { upload } = await up.json() as { upload: { id: string } };
  const down = await fetch(`${base}/api/uploads/${upload.id}`, { headers: auth });
  if (down.status !== 200) throw new Error(`download answered ${down.status}: ${await down.text()}`);
  const bytes = Buffer.from(await down.arrayBuffer());
  if (!bytes.equals(PDF)) throw new Error(`the downloaded document differs from the upload (${bytes.length} bytes, expected ${PDF.length})`);
}

async function exercise(run: Run, clone: string): Promise<Result> {
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const t0 = Date.now();
  const child = spawn('bash', ['-c', run.command], { cwd: clone, env: bareEnv(port, run.dataDir), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  let startedAt: number | null = null;
  let unapprovedScripts = '';
  const onData = (d: Buffer) => {
    log = (log + d).slice(-20_000);
    if (startedAt !== null) return;
    unapprovedScripts ||= UNAPPROVED_SCRIPTS.exec(log)?.[0] ?? '';
    if (START_BANNER.test(log)) startedAt = Date.now();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  try {
    const began = await waitForFirstPage(base, child, () => log, () => startedAt);
    const installS = (began - t0) / 1000;
    const firstPageS = (Date.now() - began) / 1000;
    // A build that failed and then worked on a retry still cost its visitors the wait; starts side by side must not clash.
    const failedBuild = /site: build FAILED[^\n]*/.exec(log)?.[0];
    if (failedBuild) throw new Error(`a site build failed before the first page: ${failedBuild.slice(0, 600)}`);
    if (unapprovedScripts) throw new Error(`npm install: "${unapprovedScripts.trim()}" — add them to package.json "allowScripts" (npm install-scripts approve <pkg>); npm 12 skips such scripts, and without the node package's preinstall \`npm start\` has no Node 24`);
    for (const p of await publicPages(base)) await expectStatus(base, p, 200);
    for (const p of ACCESS_PAGES.slice(0, -1)) await expectStatus(base, p, 200);
    await expectStatus(base, ACCESS_PAGES.at(-1)!, 404);
    for (const p of ['/.env', '/.git/config', '/.data', '/.data/pglite']) await expectStatus(base, p, 404);
    await studentUploadsAndDownloads(base);
    return { label: run.label, ok: true, installS, firstPageS };
  } catch (err: any) {
    return { label: run.label, ok: false, error: String(err?.message ?? err) };
  } finally {
    try { process.kill(-child.pid!, 'SIGTERM'); } catch { /* gone */ }
    await new Promise((r) => { if (child.exitCode !== null) r(null); else { child.once('exit', r); setTimeout(r, 10_000); } });
    try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ }
  }
}

/** True when nothing accepts a connection on 127.0.0.1:`port` (or ::1/localhost). */
function portClosed(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: 'localhost' });
    socket.once('connect', () => { socket.destroy(); resolve(false); });
    socket.once('error', () => resolve(true));
  });
}

/**
 * Step 5: `npm start` in `dir` with DATA_DIR `dataDir` (and `extraEnv`), once health answers 200 a SIGTERM to the npm
 * process alone (not its group). Passes when, polled for up to STOP_BOUND_MS, the server has logged
 * "[server] SIGTERM: shutting down", its port refuses connections and npm has exited. Kills the whole group afterwards
 * either way (an orphaned server stays in npm's process group).
 */
export async function sigtermStopsNpmStart(dir: string, dataDir: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<Result> {
  const label = 'SIGTERM to the npm process of `npm start` stops the server';
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const child = spawn('npm', ['start'], { cwd: dir, env: { ...bareEnv(port, dataDir), ...extraEnv }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const onData = (d: Buffer) => { log = (log + d).slice(-20_000); };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  try {
    const t0 = Date.now();
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode} before health answered:\n${log.slice(-3000)}`);
      if (Date.now() - t0 > TIMEOUT_MS) throw new Error(`health did not answer 200 within ${TIMEOUT_MS / 1000} s:\n${log.slice(-3000)}`);
      const status = await fetch(`${base}/api/colfront/health`, { signal: AbortSignal.timeout(5000) }).then((r) => r.status, () => 0);
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    process.kill(child.pid!, 'SIGTERM');
    const deadline = Date.now() + STOP_BOUND_MS;
    let state = { logged: false, closed: false, npmGone: false };
    while (Date.now() < deadline) {
      state = { logged: log.includes('[server] SIGTERM: shutting down'), closed: await portClosed(port), npmGone: child.exitCode !== null || child.signalCode !== null };
      if (state.logged && state.closed && state.npmGone) return { label, ok: true };
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`${STOP_BOUND_MS / 1000} s after SIGTERM to npm (pid ${child.pid}): ${state.logged ? 'the server logged its shutdown' : 'the server never logged "SIGTERM: shutting down"'}, `
      + `${state.closed ? 'the port is closed' : `port ${port} still accepts connections (the server kept running)`}, ${state.npmGone ? 'npm exited' : 'npm still runs'}.\n${log.slice(-3000)}`);
  } catch (err: any) {
    return { label, ok: false, error: String(err?.message ?? err) };
  } finally {
    try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ }
  }
}

const run0 = (r: Result) => (r.installS && r.installS > 1 ? `install ${r.installS.toFixed(1)} s, ` : '');

async function pool<T, R>(items: T[], size: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, async () => {
    while (next < items.length) { const i = next++; out[i] = await fn(items[i]); }
  }));
  return out;
}

async function main(): Promise<void> {
  const t0 = Date.now();
  if (spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim()) {
    console.warn('newcomer: the working tree has uncommitted changes; the clone tests the committed HEAD.');
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'newcomer-'));
  const clone = path.join(tmp, 'portal');
  const cloned = spawnSync('git', ['clone', '-q', ROOT, clone], { encoding: 'utf8' });
  if (cloned.status !== 0) throw new Error(`git clone failed: ${cloned.stderr}`);
  const command = readmeStartCommand(fs.readFileSync(path.join(clone, 'README.md'), 'utf8'));
  console.info(`newcomer: README start command: ${command}`);

  const results: Result[] = [await exercise({ label: 'fresh clone, no settings (DATA_DIR default .data)', command }, clone)];
  if (results[0].ok) {
    const runs: Run[] = [
      { label: 'DATA_DIR inside the checkout', dataDir: path.join(clone, 'var', 'data') },
      { label: 'DATA_DIR outside the checkout', dataDir: path.join(tmp, 'outside', 'data') },
      { label: 'DATA_DIR sharing a prefix with the checkout', dataDir: `${clone}-data` },
      { label: 'DATA_DIR with a space', dataDir: path.join(tmp, 'portal data', 'files') },
      { label: 'DATA_DIR under a dot-folder', dataDir: path.join(tmp, '.hidden', 'data') },
      { label: 'DATA_DIR relative (../portal-relative)', dataDir: '../portal-relative' },
    ].map((r) => ({ ...r, command: 'npm start' }));
    // Astro puts a build's pre-render bundle in `<cwd>/.astro/.prerender` when its output lies outside the working
    // directory: one folder for every build from this checkout, so side-by-side builds break each other (seen as
    // ENOENT on the other build's images). While these starts build, that folder must never appear.
    const shared = path.join(clone, '.astro', '.prerender');
    let sharedSeen = false;
    const watch = setInterval(() => { sharedSeen ||= fs.existsSync(shared); }, 200);
    results.push(...await pool(runs, PARALLEL, (r) => exercise(r, clone)));
    clearInterval(watch);
    if (sharedSeen) results.push({ label: 'site builds of different DATA_DIRs kept apart', ok: false, error: `a build used the checkout's shared ${shared}; two nodes building at once would clash` });
    results.push(await sigtermStopsNpmStart(clone, path.join(tmp, 'sigterm', 'data')));
  }
  for (const r of results) console.info(`${r.ok ? 'ok  ' : 'FAIL'} ${r.label}${r.ok ? (r.firstPageS === undefined ? '' : ` — ${run0(r)}first page ${r.firstPageS.toFixed(1)} s after npm start`) : `\n     ${r.error?.split('\n').join('\n     ')}`}`);
  const failed = results.filter((r) => !r.ok).length;
  console.info(`newcomer stage: ${results.length - failed} of ${results.length} starts worked (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  if (!failed) fs.rmSync(tmp, { recursive: true, force: true });
  else console.info(`newcomer: the clone is kept in ${tmp}`);
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
