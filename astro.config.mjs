// Astro pre-renders the public site from the API at build time (DESIGN §1).
// SITE_OUT_DIR is set by the server's rebuild-on-publish; SITE_API_URL points the content loader at the API.
import { defineConfig } from 'astro/config';
import preact from '@astrojs/preact';
import sitemap from '@astrojs/sitemap';
import tailwindcss from '@tailwindcss/vite';
import serviceWorker from './site/integrations/service-worker.mjs';
import clientInteract from './site/integrations/client-interact.mjs';
import { staticReactReads, syncExternalStoreEsm, tusModernBuild } from './site/integrations/client-bundle.mjs';

/**
 * The browsers applicants' phones have (device audit: Android WebView and Chrome from 87, iOS/Safari 14, Samsung
 * Internet 14+): client JavaScript is lowered to them (`??=`, `||=`, `&&=` need Chrome 85 / Safari 14; later syntax
 * is rewritten). Astro builds the client with `target: 'esnext'` set on the client environment itself, which
 * overrides `vite.build.target` (node_modules/astro/dist/core/build/vite-build-config.js), so this plugin sets it in
 * Vite's `configEnvironment` hook, which runs after Astro's config. CSS keeps Astro's 'esnext' (its fallbacks are
 * written in the stylesheets). The same hook sets `preserveEntrySignatures: 'allow-extension'` (Astro sets
 * 'exports-only'): an entry whose module a chunk group took (the island renderer, in `preact`; the wizard's step
 * schemas, in `step-schemas`) is then that group's file, which also exports the entry's names, instead of a file of
 * its own that only re-exports them (`client.js`, 47 bytes and a request on every island page, issue #17).
 * Returns a Vite plugin.
 */
const BROWSER_TARGETS = ['chrome87', 'safari14', 'firefox91', 'edge88'];
function clientBuildTarget() {
  return {
    name: 'college:client-build-target',
    configEnvironment(name, config) {
      if (name !== 'client' || !config.build) return;
      config.build.target = BROWSER_TARGETS;
      config.build.cssTarget ??= 'esnext';
      config.build.rolldownOptions = { ...config.build.rolldownOptions, preserveEntrySignatures: 'allow-extension' };
    },
  };
}

export default defineConfig({
  srcDir: './site',
  output: 'static',
  outDir: process.env.SITE_OUT_DIR || './dist',
  // One cache per DATA_DIR, so two servers (or a benchmark) building at once do not share a content store.
  cacheDir: process.env.SITE_CACHE_DIR || './node_modules/.astro',
  site: process.env.PUBLIC_URL || 'http://localhost:4321',
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'never' },
  // Admins give course and announcement images by URL (spec §3, §5); the build fetches and resizes them, and the site
  // serves the copies (site/lib/remote-image.ts).
  image: { remotePatterns: [{ protocol: 'https' }, { protocol: 'http' }] },
  integrations: [preact({ compat: true }), clientInteract(), serviceWorker(), sitemap({ filter: (page) => !/\/(admin|dashboard|my-applications|apply|applications|profile|auth|login|register|register-simple|forgot-password|reset-password)(\/|$)/.test(new URL(page).pathname) && !/^\/courses\/not-found\/?$/.test(new URL(page).pathname) })],
  // Islands are written against React's API and run on preact/compat (about 55 KB less JavaScript per page).
  // Libraries that import 'react' are bundled for SSR too, so the alias applies to them at build time.
  // SITE_SOURCEMAP=1 writes source maps for bundle analysis (bench/bundle-analysis.ts); off in real builds.
  // `__name` pure: Radix's builds name every function with a top-level `__name(fn, 'x')` call, which kept unused
  // code alive (Radix Tabs 8.7 → 5.4 KB gzip without it; only Function.name is lost, issue #17).
  // syncExternalStoreEsm and staticReactReads (site/integrations/client-bundle.mjs) keep preact/compat plain ES code
  // in the `preact` file: no lazy initialisers, no namespace object, no rolldown-runtime file for pages without charts.
  vite: { build: { sourcemap: process.env.SITE_SOURCEMAP === '1', rolldownOptions: { treeshake: { manualPureFunctions: ['__name'] }, output: { codeSplitting: { groups: [
    // Fewer, larger shared files (issue #17: every file costs its response headers, and account pages loaded 20–30).
    // `stores`: what the header script of every page needs (no Preact), so public pages load one shared file (with
    // sa-calendar, 0.2 KB, which the header's date bounds need: left to `format`, it made every page load that file);
    // `preact`: Preact + compat + the island renderer, the session hook with the idle watcher it starts for a student
    // (ui/idle-watch.ts, ~1 KB; its dialog loads only when due), and the account pages' spinner, login guard,
    // early reads and BusyButton (1 KB; BusyButton's 0.3 KB was a file of its own on the dashboard, the wizard and
    // register, 2026-11-28; public pages load no Preact until a visitor uses an island), needed by every island,
    // and the phone number's characters (contracts/phone-text, 0.3 KB, zod-free: the forms' phone rule and the staff and
    // student pages that show numbers both use it, and in `forms` it made those pages load zod);
    // `islands`: small helpers the account forms use (the step wizards' page title too), none of them used by public
    // pages (not save-api.ts, which only
    // the wizard, the application page, profile and admin use: in `islands` it put 0.9 KB on /login and /register,
    // 2026-11-28); `student`: the
    // same for the pages that list applications (dashboard, My Applications, application detail: their query stores too); `tabs`: Radix Tabs with the
    // primitives it needs (four files otherwise); `format`: the formatters and the spec's zod-free constants (wizard steps, statuses), used by public and account
    // pages alike (the statuses here, not in `student`, so the wizard's schemas do not load the query stores).
    // A group also takes its modules' dependencies unless an earlier group already took them, hence the order.
    { name: 'stores', test: (id) => /node_modules[\\/](nanostores[\\/](atom|map|lifecycle|listen-keys|deep-map|clean-stores)|@nanostores[\\/]persistent)[\\/]|preload-helper|[\\/]site[\\/](stores[\\/](session|theme|toasts)|lib[\\/]api-client)\.ts$|[\\/]api[\\/]contracts[\\/]sa-calendar\.ts$/.test(id), priority: 3 },
    { name: 'preact', test: (id) => /node_modules[\\/](preact|@astrojs[\\/]preact|@nanostores[\\/]react)[\\/]|[\\/]site[\\/](islands[\\/](ui[\\/](use-session\.ts|idle-watch\.ts|Spinner\.tsx|BusyButton\.tsx)|auth[\\/]redirect-to-login\.ts)|lib[\\/]early-reads\.ts)$|[\\/]api[\\/]contracts[\\/]phone-text\.ts$/.test(id), priority: 2 },
    { name: 'islands', test: /[\\/]site[\\/]islands[\\/](ui[\\/](Field|typed-values|lazy-resolver|use-step-history|use-leave-warning|use-step-title)|auth[\\/](safe-redirect|form-helpers|use-signed-in-redirect))\.tsx?$/, priority: 1 },
    { name: 'tabs', test: /node_modules[\\/]@radix-ui[\\/]react-tabs[\\/]/, priority: 1 },
    { name: 'format', test: /[\\/](site[\\/]lib[\\/]format|api[\\/]contracts[\\/](application-steps|statuses))\.ts$/, priority: 1 },
    // `forms`: zod/mini with its core, and the small contract modules the applicant forms share (log in, register, the
    // wizard, the public forms): nine files of 0.4–1.1 KB each otherwise, every one with its response headers.
    { name: 'forms', test: /node_modules[\\/]zod[\\/]v4[\\/](core|mini)[\\/][^?]*$|[\\/]api[\\/]contracts[\\/](cross-field|person-name|mailbox|auth-rules|phone|sign-in|nsc|nsc-schema)\.ts$/, priority: 1 },
    { name: 'student', test: /[\\/](site[\\/](islands[\\/](ui[\\/](StatusBadge|SkeletonRows|ErrorState|card-rows)|student[\\/](shared|student-stores|ApplicationAlerts))|stores[\\/]fetcher)|api[\\/]contracts[\\/]notifications|node_modules[\\/]@nanostores[\\/]query[\\/].*)\.[jt]sx?$/, priority: 1 },
    // `step-schemas`: the wizard's step schemas (contracts/applications.ts) with the list that names them, which the
    // wizard loads when idle (form.ts loadSchemas): otherwise a 0.15 KB file of its own beside the schemas' file.
    { name: 'step-schemas', test: /[\\/]site[\\/]islands[\\/]applications[\\/]apply[\\/]step-schemas\.ts$/, priority: 1 },
  ] } } } }, plugins: [tailwindcss(), clientBuildTarget(), tusModernBuild(), syncExternalStoreEsm(), staticReactReads()], resolve: { noExternal: [/^@radix-ui\//, '@nanostores/react', 'react-hook-form', '@hookform/resolvers', 'recharts', /^@floating-ui\//, 'react-remove-scroll', 'react-remove-scroll-bar', 'react-style-singleton', 'use-callback-ref', 'use-sidecar', 'aria-hidden'] } },
  devToolbar: { enabled: false },
});
