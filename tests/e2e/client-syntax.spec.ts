/**
 * The client JavaScript the e2e server built (tests/e2e/serve.ts, DATA_DIR/site/builds) runs on the browsers
 * applicants' phones have (device audit; astro.config.mjs BROWSER_TARGETS: Chrome 87, Safari 14): every file parses
 * as ECMAScript 2021, the newest edition those browsers read whole (`??=`, `||=`, `&&=` are ES2021 and stay; ES2022
 * syntax such as class fields, private members and static blocks, not all of which they read, must be lowered),
 * and none calls an API those browsers lack (Object.hasOwn broke the Assessment Centre booking; AbortSignal.timeout,
 * called without a guard, the whole portal). Reads the built files, so it needs no build of its own.
 * The parser is acorn, which the project already installs (through vite's terser and lighthouse).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'acorn';
import { expect, test } from '@playwright/test';
import { E2E_DATA_DIR } from './fixtures.ts';

/** Calls that throw on Chrome 87 / Safari 14 (each with the first version that has it). */
const MISSING_ON_OLD_PHONES: [RegExp, string][] = [
  [/\bObject\.hasOwn\(/, 'Object.hasOwn (Chrome 93, Safari 15.4)'],
  [/\.at\(-\d/, 'Array.prototype.at (Chrome 92, Safari 15.4)'],
  [/\bstructuredClone\(/, 'structuredClone (Chrome 98, Safari 15.4)'],
  [/\bAbortSignal\.any\(/, 'AbortSignal.any (Chrome 116, Safari 17.4)'],
  [/\.findLast(Index)?\(/, 'Array.prototype.findLast (Chrome 97, Safari 15.4)'],
  [/\.to(Sorted|Reversed|Spliced)\(/, 'Array.prototype.toSorted and friends (Chrome 110, Safari 16)'],
  [/\b(Object|Map)\.groupBy\(/, 'Object.groupBy (Chrome 117, Safari 17.4)'],
  [/\bPromise\.withResolvers\(/, 'Promise.withResolvers (Chrome 119, Safari 17.4)'],
];

/** The newest build's _astro folder (the one the server serves). */
function builtAssets(): string {
  const builds = path.join(E2E_DATA_DIR, 'site', 'builds');
  const dirs = fs.readdirSync(builds).filter((d) => fs.existsSync(path.join(builds, d, '_astro'))).sort();
  expect(dirs.length, `no site build under ${builds}`).toBeGreaterThan(0);
  return path.join(builds, dirs.at(-1)!, '_astro');
}

test('built client JavaScript parses as ES2021 and calls no API that old phones lack', () => {
  const dir = builtAssets();
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.js'));
  expect(files.length).toBeGreaterThan(10);
  const problems: string[] = [];
  for (const f of files) {
    const code = fs.readFileSync(path.join(dir, f), 'utf8');
    try { parse(code, { ecmaVersion: 2021, sourceType: 'module' }); } catch (e) {
      const pos = (e as { pos?: number }).pos ?? 0;
      problems.push(`${f}: ${(e as Error).message} near ${JSON.stringify(code.slice(Math.max(0, pos - 40), pos + 40))}`);
    }
    for (const [re, api] of MISSING_ON_OLD_PHONES) if (re.test(code)) problems.push(`${f}: calls ${api}`);
  }
  expect(problems).toEqual([]);
});
