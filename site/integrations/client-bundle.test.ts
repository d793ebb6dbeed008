import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rolldown, type OutputChunk, type Plugin } from 'rolldown';
import { tusModernBuild, zodClassicOwnCore } from './client-bundle.mjs';

// Entry files live under the project's node_modules so that 'zod' and 'tus-js-client' resolve as in the site build.
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

describe('client bundle plugins (issue #17)', () => {
  const entries = {
    mini: "import * as z from 'zod/mini'; export const s = z.string().check(z.minLength(2, 'Too short'));",
    classic: "import { z } from 'zod'; export const s = z.object({ email: z.string().email(), ip: z.cidrv4() });",
  };

  it('a page using zod/mini loads only the core mini uses, even when another page uses classic zod', async () => {
    const out = await build(entries, [zodClassicOwnCore() as Plugin]);
    expect(out.mini).toContain('$ZodString');
    expect(out.mini).not.toContain('$ZodCIDRv4');
    expect(out.classic).toContain('$ZodCIDRv4');
  });

  it('the two copies of core agree: same messages, one locale setting, mixed schemas work', async () => {
    const outDir = path.join(DIR, 'out');
    const mixed = "import { z } from 'zod'; import { s } from './mini.js'; export const m = z.object({ name: s, n: z.number() });";
    await build({ ...entries, mixed }, [zodClassicOwnCore() as Plugin]);
    const b = await rolldown({ input: ['mini', 'classic', 'mixed'].map((n) => path.join(DIR, `${n}.js`)), plugins: [zodClassicOwnCore() as Plugin], platform: 'browser', logLevel: 'silent' });
    await b.write({ dir: outDir, format: 'esm', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' });
    const classic = await import(path.join(outDir, 'classic.mjs'));
    const mini = await import(path.join(outDir, 'mini.mjs'));
    const mix = await import(path.join(outDir, 'mixed.mjs'));
    expect(mini.s.safeParse('a').error.issues[0].message).toBe('Too short');
    expect(classic.s.safeParse({ email: 'x', ip: '1.2.3.4/8' }).error.issues[0].message).toBe('Invalid email address');
    // The English locale that classic zod sets is zod's global config, so mini's copy uses it too.
    expect(mini.s.safeParse(3).error.issues[0].message).toBe('Invalid input: expected string, received number');
    expect(mix.m.safeParse({ name: 'a', n: 'x' }).error.issues.map((i: { message: string }) => i.message)).toEqual(['Too short', 'Invalid input: expected number, received string']);
  });

  it('the browser gets tus-js-client as written, not its Babel build with regenerator-runtime', async () => {
    const out = await build({ tus: "export { Upload, isSupported } from 'tus-js-client';" }, [tusModernBuild() as Plugin]);
    expect(out.tus).toContain('Upload');
    expect(out.tus).not.toContain('Generator is already running');
    expect(out.tus!.length).toBeLessThan(40_000);
  });
});
