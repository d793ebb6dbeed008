import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rolldown, type OutputChunk, type Plugin } from 'rolldown';
import { pathToFileURL } from 'node:url';
import { staticReactReads, syncExternalStoreEsm, tusModernBuild } from './client-bundle.mjs';

// Entry files live under the project's node_modules so that 'tus-js-client' resolves as in the site build.
const DIR = path.join(process.cwd(), 'node_modules', '.cache', 'client-bundle-test');

/** Bundles `entries` (name → source) for the browser, minified; returns each entry's code with its static imports. */
async function build(entries: Record<string, string>, plugins: Plugin[]): Promise<Record<string, string>> {
  fs.mkdirSync(DIR, { recursive: true });
  const input: Record<string, string> = {};
  for (const [name, code] of Object.entries(entries)) fs.writeFileSync((input[name] = path.join(DIR, `${name}.js`)), code);
  const bundle = await rolldown({ input, plugins, platform: 'browser', logLevel: 'silent' });
  const { output } = await bundle.generate({ format: 'esm', minify: true });
  const chunks = new Map(output.filter((o): o is OutputChunk => o.type === 'chunk').map((c) => [c.fileName, c]));
  const loaded = (c: OutputChunk, seen = new Set<string>()): string => {
    if (seen.has(c.fileName)) return '';
    seen.add(c.fileName);
    return c.code + c.imports.map((f) => loaded(chunks.get(f)!, seen)).join('');
  };
  return Object.fromEntries([...chunks.values()].filter((c) => c.isEntry).map((c) => [c.name, loaded(c)]));
}

/**
 * The project modules (site/**, api/**) the site's pages, islands and scripts load at run time, with their imports:
 * follows relative, `#contracts/` and `#api/` imports (static and dynamic; `import type` and `export type` load
 * nothing) from every file under site/ that is not a test, or from `entries` (absolute paths) when given.
 */
function siteModules(entries?: string[]): Map<string, string[]> {
  const root = process.cwd();
  const seen = new Map<string, string[]>();
  const IMPORT = /(?:^|[;\s])(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  const resolve = (spec: string, from: string): string | null => {
    const p = spec.startsWith('#contracts/') ? path.join(root, 'api/contracts', spec.slice(11))
      : spec.startsWith('#api/') ? path.join(root, 'api/src', spec.slice(5))
      : spec.startsWith('.') ? path.resolve(path.dirname(from), spec) : null;
    if (!p) return null;
    return [p, `${p}.ts`, `${p}.tsx`, path.join(p, 'index.ts')].find((f) => fs.existsSync(f) && fs.statSync(f).isFile()) ?? null;
  };
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const text = fs.readFileSync(file, 'utf8');
    const specs = [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2]);
    seen.set(file, specs);
    for (const spec of specs) { const f = resolve(spec, file); if (f && /\.(tsx?|mjs|js|astro)$/.test(f)) visit(f); }
  };
  const walk = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory()
    ? walk(path.join(dir, e.name)) : /\.(tsx?|astro)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : []));
  for (const f of entries ?? walk(path.join(root, 'site'))) visit(f);
  return seen;
}

describe('what the browser loads of zod (issue #17)', () => {
  it('no module of the site imports classic zod (\'zod\'): its contracts use zod/mini, so the browser needs no zod locale or classic core', () => {
    const modules = siteModules();
    expect(modules.size).toBeGreaterThan(100);
    expect([...modules.keys()].some((f) => f.endsWith(path.join('api', 'contracts', 'courses.ts')))).toBe(true);
    const classic = [...modules].filter(([, specs]) => specs.some((s) => s === 'zod' || s.startsWith('zod/v4') || s === 'zod/v3')).map(([f]) => path.relative(process.cwd(), f));
    expect(classic).toEqual([]);
  });

  it('showing a phone number loads no zod: site/lib/phone.ts reaches the phone characters without the forms\' schemas (staff lists and the application page)', () => {
    const modules = siteModules([path.join(process.cwd(), 'site', 'lib', 'phone.ts')]);
    expect([...modules.keys()].some((f) => f.endsWith(path.join('api', 'contracts', 'phone-text.ts')))).toBe(true);
    const withZod = [...modules].filter(([, specs]) => specs.some((s) => s === 'zod' || s.startsWith('zod/'))).map(([f]) => path.relative(process.cwd(), f));
    expect(withZod).toEqual([]);
  });
});

describe('client bundle plugins (issue #17)', () => {
  it('the browser gets tus-js-client as written, not its Babel build with regenerator-runtime', async () => {
    const out = await build({ tus: "export { Upload, isSupported } from 'tus-js-client';" }, [tusModernBuild() as Plugin]);
    expect(out.tus).toContain('Upload');
    expect(out.tus).not.toContain('Generator is already running');
    expect(out.tus!.length).toBeLessThan(40_000);
  });

  it('use-sync-external-store comes as an ES module: no CommonJS wrapper around preact/compat, and its selector hook still works', async () => {
    const entry = `import { h } from 'preact';
      import { renderToString } from 'preact-render-to-string';
      import { useSyncExternalStoreWithSelector } from 'use-sync-external-store/shim/with-selector';
      import { useSyncExternalStore } from 'use-sync-external-store/shim';
      const store = { n: 41 }, get = () => store;
      function Shown() { const n = useSyncExternalStoreWithSelector(() => () => {}, get, get, (s) => s.n + 1); return h('p', null, n, ' ', useSyncExternalStore(() => () => {}, get, get).n); }
      export const html = renderToString(h(Shown));`;
    const plain = await run(entry, []);
    expect(plain.code, 'without the plugin the CommonJS file is wrapped').toContain('exports:{}');
    const esm = await run(entry, [syncExternalStoreEsm() as Plugin]);
    expect(esm.code).not.toContain('exports:{}');
    expect(esm.code).not.toContain('require(');
    expect(esm.exports.html).toBe('<p>42 41</p>');
  });

  it('computed React reads of Radix and recharts become member reads: no preact/compat namespace object, same values', async () => {
    const entry = `import * as React from 'react';
      export const useId = React[" useId ".trim().toString()];
      export const useIdToo = React['useId'.toString()];
      export const use = React[" use ".trim().toString()];
      export const same = useId === React.useId;`;
    const plain = await run(entry, []);
    expect(plain.code, 'without the plugin the whole namespace is built').toContain('Children');
    const direct = await run(entry, [staticReactReads() as Plugin]);
    expect(direct.code).not.toContain('Children');
    expect(typeof direct.exports.useId).toBe('function');
    expect(direct.exports.useIdToo).toBe(direct.exports.useId);
    expect(direct.exports.same).toBe(true);
    expect(direct.exports.use, 'compat has no use(), as before').toBeUndefined();
  });
});

let runs = 0;
/**
 * Bundles `code` (as a file under a node_modules/@radix-ui/ folder in the test's cache, where staticReactReads looks)
 * for the browser, minified, with 'react' as preact/compat as in the site build, into one file, and imports it;
 * returns its code and exports.
 */
async function run(code: string, plugins: Plugin[]): Promise<{ code: string; exports: Record<string, unknown> }> {
  const dir = path.join(DIR, 'node_modules', '@radix-ui', 'entries');
  fs.mkdirSync(dir, { recursive: true });
  const input = path.join(dir, `entry-${process.pid}-${++runs}.mjs`);
  fs.writeFileSync(input, code);
  const reactIsCompat: Plugin = { name: 'react-is-compat', resolveId(source, importer, options) { return source === 'react' ? this.resolve('preact/compat', importer, { ...options, skipSelf: true }) : null; } };
  const bundle = await rolldown({ input, plugins: [reactIsCompat, ...plugins], platform: 'browser', logLevel: 'silent' });
  const { output } = await bundle.generate({ format: 'esm', minify: true, codeSplitting: false });
  const file = `${input}.out.mjs`;
  fs.writeFileSync(file, output[0].code);
  return { code: output[0].code, exports: await import(pathToFileURL(file).href) };
}
