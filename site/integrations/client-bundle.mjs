/**
 * Vite plugins that choose which published files of a library the browser gets (issue #17 data budget), used by
 * astro.config.mjs for the client's production build only (`apply`, `applyToEnvironment`); the server and the dev
 * server keep the packages' usual entries.
 * Tested with rolldown in client-bundle.test.ts.
 */
import { readFile } from 'node:fs/promises';

/**
 * Issue #17: the applicant pages' schemas use zod/mini so that only the checks they use ship, but zod's core is one
 * set of modules, and a module goes to one chunk with every export any page uses. The admin contracts still written
 * with classic `zod` (common, courses, announcements, settings, external) use nearly all of core (classic's ZodType
 * names every method), so /apply and /login loaded 55 KB of core for about 27 KB of use. In the client build only,
 * this gives classic zod its own copy of core and the locales (ids with `?zod-classic`): the applicant pages load the
 * core that mini uses; the admin pages that use classic load its copy as well. The copies agree: zod keeps its config
 * (locale) and registry on globalThis, and its `instanceof` tests by trait name. Remove this once those contracts use
 * zod/mini. Returns a Vite plugin.
 */
const CLASSIC_COPY = '?zod-classic';
export function zodClassicOwnCore() {
  const zodFile = /[\\/]node_modules[\\/]zod[\\/]v4[\\/](classic|core|locales)[\\/]/;
  return {
    name: 'college:zod-classic-own-core',
    enforce: 'pre',
    apply: 'build',
    applyToEnvironment: (env) => env.name === 'client',
    async resolveId(source, importer, options) {
      if (!importer) return null;
      const inCopy = importer.endsWith(CLASSIC_COPY);
      if (!inCopy && !/[\\/]node_modules[\\/]zod[\\/]v4[\\/]classic[\\/]/.test(importer)) return null;
      const r = await this.resolve(source, inCopy ? importer.slice(0, -CLASSIC_COPY.length) : importer, { ...options, skipSelf: true });
      if (!r || r.external || !zodFile.test(r.id) || /[\\/]classic[\\/]/.test(r.id)) return r;
      return { ...r, id: r.id + CLASSIC_COPY };
    },
    load(id) {
      return id.endsWith(CLASSIC_COPY) ? readFile(id.slice(0, -CLASSIC_COPY.length), 'utf8') : null;
    },
  };
}

/**
 * tus-js-client publishes three builds: `lib.esm` (the `module` entry, Babel output for ES5 browsers: 7 copies of the
 * class helpers and 4 of regenerator-runtime, 61 KB minified), `lib.es5`, and `lib`, the same code as written
 * (classes, async/await, spread), which every browser we build for runs (BROWSER_TARGETS; the build lowers what they
 * lack). The client takes `lib` (29 KB minified, issue #17). Returns a Vite plugin.
 */
export function tusModernBuild() {
  return {
    name: 'college:tus-modern-build',
    enforce: 'pre',
    apply: 'build',
    applyToEnvironment: (env) => env.name === 'client',
    resolveId(source, importer, options) {
      if (source !== 'tus-js-client') return null;
      return this.resolve('tus-js-client/lib/browser/index.js', importer, { ...options, skipSelf: true });
    },
  };
}
