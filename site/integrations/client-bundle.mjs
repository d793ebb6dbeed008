/**
 * Vite plugins that choose which published files of a library the browser gets (issue #17 data budget), used by
 * astro.config.mjs for the client's production build only (`apply`, `applyToEnvironment`); the server and the dev
 * server keep the packages' usual entries.
 * Tested with rolldown in client-bundle.test.ts.
 */

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
