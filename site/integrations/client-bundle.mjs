/**
 * Vite plugins that choose which published files of a library the browser gets, and how libraries' code reaches the
 * bundler (issue #17 data budget), used by
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

const SYNC_STORE_ESM = '\0college:use-sync-external-store-esm';
const SYNC_STORE_SHIM_ESM = '\0college:use-sync-external-store-shim-esm';

/**
 * use-sync-external-store (recharts' and react-redux's `useSyncExternalStoreWithSelector`, admin reports) is published
 * as CommonJS only, and its `require("react")` made the bundler wrap preact/compat, preact and its hooks in lazy
 * initialisers (`__esmMin`), and build a CommonJS view of compat, in the `preact` chunk every island page loads: bytes,
 * and the rolldown-runtime helpers, on pages with no chart (issue #17). For the client build the plugin serves the
 * package's own production code as an ES module: `useSyncExternalStoreWithSelector` from
 * `cjs/use-sync-external-store-shim/with-selector.production.js`, with `React` imported from 'react' (preact/compat
 * here) and the shim's `useSyncExternalStore` taken as React's own, which is what the shim exports whenever React
 * has one (compat does); `use-sync-external-store/shim` becomes compat's `useSyncExternalStore` likewise. Throws at
 * build time if a new version of the file no longer has the two `require`s and the one `exports.` line it rewrites,
 * or still has CommonJS (`require(`, `exports.`, `module.exports`) or another use of the shim after the rewrite.
 * Returns a Vite plugin.
 */
export function syncExternalStoreEsm() {
  return {
    name: 'college:use-sync-external-store-esm',
    enforce: 'pre',
    apply: 'build',
    applyToEnvironment: (env) => env.name === 'client',
    resolveId(source) {
      if (/^use-sync-external-store\/(shim\/)?with-selector(\.js)?$/.test(source)) return SYNC_STORE_ESM;
      if (/^use-sync-external-store(\/shim(\/index\.js)?)?$/.test(source)) return SYNC_STORE_SHIM_ESM;
      return null;
    },
    async load(id) {
      if (id === SYNC_STORE_SHIM_ESM) return "export { useSyncExternalStore } from 'react';\n";
      if (id !== SYNC_STORE_ESM) return null;
      const resolved = await this.resolve('use-sync-external-store/package.json', undefined, { skipSelf: true });
      if (!resolved) throw new Error('use-sync-external-store is not installed');
      const file = resolved.id.replace(/package\.json$/, 'cjs/use-sync-external-store-shim/with-selector.production.js');
      const cjs = (await import('node:fs')).readFileSync(file, 'utf8');
      const requires = /var React = require\("react"\),\s*shim = require\("use-sync-external-store\/shim"\);/;
      const exported = /exports\.useSyncExternalStoreWithSelector = function/;
      if (!requires.test(cjs) || !exported.test(cjs)) throw new Error(`${file}: not the code syncExternalStoreEsm() rewrites (client-bundle.mjs)`);
      const esm = cjs.replace('"use strict";', '')
        .replace(requires, 'import * as React from "react";\nvar shim = { useSyncExternalStore: React.useSyncExternalStore };')
        .replace(exported, 'export var useSyncExternalStoreWithSelector = function');
      // What the rewrite leaves must be an ES module: any other CommonJS, or another use of the shim, would build
      // cleanly and fail in the browser ("exports is not defined"), so a changed file fails the build instead.
      if (/\brequire\(|\bexports\.|\bmodule\.exports\b/.test(esm) || /\bshim\.(?!useSyncExternalStore\b)/.test(esm)) {
        throw new Error(`${file}: CommonJS or shim use left after syncExternalStoreEsm()'s rewrite (client-bundle.mjs)`);
      }
      return esm;
    },
  };
}

/**
 * Radix's builds read a few React hooks by computed name (`React[" useId ".trim().toString()]`, also `use`,
 * `useInsertionEffect`, `useEffectEvent`, `useSyncExternalStore`, `startTransition`), and recharts reads
 * `React['useId'.toString()]`, so that bundlers for React versions without them do not fail. A computed read makes the
 * bundler build the whole preact/compat namespace object (every export, with the rolldown-runtime helper that makes
 * it) in the `preact` chunk every island page loads (issue #17). For the client build the plugin writes those reads as
 * plain member reads (`React.useId`), which the bundler resolves to compat's export, or to `undefined` where compat
 * has none (`use`, `useEffectEvent`: the value the computed read gave, so the library takes the same fallback; the
 * build warns IMPORT_IS_UNDEFINED for those two). Returns a Vite plugin.
 */
export function staticReactReads() {
  const COMPUTED = /\b(React\d*)\[\s*(?:" (\w+) "\.trim\(\)|'(\w+)')\.toString\(\)\s*\]/g;
  return {
    name: 'college:static-react-reads',
    apply: 'build',
    applyToEnvironment: (env) => env.name === 'client',
    transform: {
      filter: { id: /[\\/]node_modules[\\/](@radix-ui|recharts)[\\/][^?]*\.m?js$/, code: '.toString()' },
      handler(code) {
        const out = code.replace(COMPUTED, (_m, ns, a, b) => `${ns}.${a ?? b}`);
        return out === code ? null : { code: out, map: null };
      },
    },
  };
}
