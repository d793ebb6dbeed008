/**
 * Earlier builds kept for open tabs (audit "the site changes under an open tab"). A page loaded from one build asks
 * later for its lazily imported chunks and lazy pictures under `/_astro/`, whose hashed names change with the code
 * (a deploy) or a picture (a publish). So a swap keeps the builds before it on disk for a while, and `serve.ts` sends
 * an `/_astro/` file the live build lacks from the newest kept build that has it (`assetIndex`).
 * Build folders are named `<start ms>-<build id>` (builder.ts); a build is complete once it has `index.html` and
 * its `csp.json` (written just before it goes live).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CSP_FILE } from './csp.ts';

/** Builds kept whatever their age, the live one included: the last few deploys and publishes. */
export const KEEP_NEWEST_BUILDS = 3;

/**
 * How long (ms) a build stays on disk after it stopped being live, when it is not among the `KEEP_NEWEST_BUILDS`
 * newest: a tab opened just before the swap may ask for its chunks and pictures for as long as it stays open.
 * A day covers a working session left open overnight; a build costs about 4.4 MB (14 courses), so a day of
 * publishes costs megabytes, not gigabytes.
 */
export const KEEP_BUILDS_MS = 24 * 3600_000;

/** When the build in `dir` started (ms since the epoch): the number its name starts with, else the folder's mtime. */
function startedAt(dir: string): number {
  const n = Number(/^(\d+)-/.exec(path.basename(dir))?.[1]);
  if (Number.isFinite(n) && n > 0) return n;
  try { return fs.statSync(dir).mtimeMs; } catch { return 0; }
}

function isComplete(dir: string): boolean {
  return fs.existsSync(path.join(dir, 'index.html')) && fs.existsSync(path.join(dir, CSP_FILE));
}

/**
 * The complete builds under `buildsDir` other than `live` (absolute paths), newest first. Unfinished folders (a
 * build that failed or was killed) are left out.
 */
export function earlierBuilds(buildsDir: string, live: string | null): string[] {
  let names: string[];
  try { names = fs.readdirSync(buildsDir); } catch { return []; }
  return names.map((n) => path.join(buildsDir, n))
    .filter((d) => d !== live && isComplete(d))
    .sort((a, b) => startedAt(b) - startedAt(a));
}

/**
 * Deletes the builds under `buildsDir` that no open tab needs any more, right after `live` went live (no other
 * build runs then): unfinished folders at once, and a complete build once it is both beyond the
 * `KEEP_NEWEST_BUILDS` newest (`live` counts as the newest) and replaced more than `KEEP_BUILDS_MS` before `now`
 * (ms). "Replaced" is when the next newer build started: a tab can have loaded the build's pages until then, so a
 * build that was live for months is kept a day after its successor, not removed for being old. Answers the kept
 * earlier builds, newest first (for `assetIndex`).
 */
export function pruneBuilds(buildsDir: string, live: string, now: number = Date.now()): string[] {
  const complete = earlierBuilds(buildsDir, live);
  const kept: string[] = [];
  let successorStarted = startedAt(live);
  complete.forEach((dir, i) => {
    const replacedAt = Math.min(successorStarted, now);
    successorStarted = startedAt(dir);
    if (i + 1 < KEEP_NEWEST_BUILDS || now - replacedAt < KEEP_BUILDS_MS) kept.push(dir);
    else fs.rmSync(dir, { recursive: true, force: true });
  });
  for (const name of fs.readdirSync(buildsDir)) {
    const dir = path.join(buildsDir, name);
    if (dir !== live && !kept.includes(dir)) fs.rmSync(dir, { recursive: true, force: true });
  }
  return kept;
}

/**
 * Every file under `_astro/` of `builds` (newest first), by its path below `_astro/` ('/'-separated) → the build
 * folder to send it from; a name in several builds maps to the newest. The server looks a request up here only when
 * the live build lacks it: an exact key, so a path outside the builds' `_astro/` folders can never be named.
 */
export function assetIndex(builds: string[]): Map<string, string> {
  const index = new Map<string, string>();
  const walk = (build: string, rel: string) => {
    let entries: fs.Dirent[];
    try { entries = fs.readdirSync(path.join(build, '_astro', rel), { withFileTypes: true }); } catch { return; }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const key = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(build, key);
      else if (e.isFile() && !index.has(key)) index.set(key, build);
    }
  };
  for (const b of builds) walk(b, '');
  return index;
}
