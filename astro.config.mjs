// Astro pre-renders the public site from the API at build time (DESIGN §1).
// SITE_OUT_DIR is set by the server's rebuild-on-publish; SITE_API_URL points the content loader at the API.
import { defineConfig } from 'astro/config';
import preact from '@astrojs/preact';
import sitemap from '@astrojs/sitemap';
import tailwindcss from '@tailwindcss/vite';
import serviceWorker from './site/integrations/service-worker.mjs';

export default defineConfig({
  srcDir: './site',
  output: 'static',
  outDir: process.env.SITE_OUT_DIR || './dist',
  // One cache per DATA_DIR, so two servers (or a benchmark) building at once do not share a content store.
  cacheDir: process.env.SITE_CACHE_DIR || './node_modules/.astro',
  site: process.env.PUBLIC_URL || 'http://localhost:4321',
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'never' },
  integrations: [preact({ compat: true }), serviceWorker(), sitemap({ filter: (page) => !/\/(admin|dashboard|my-applications|apply|applications|profile|auth|login|register|register-simple|forgot-password|reset-password)(\/|$)/.test(new URL(page).pathname) && !/^\/courses\/not-found\/?$/.test(new URL(page).pathname) })],
  // Islands are written against React's API and run on preact/compat (about 55 KB less JavaScript per page).
  // Libraries that import 'react' are bundled for SSR too, so the alias applies to them at build time.
  vite: { build: { rolldownOptions: { output: { codeSplitting: { groups: [
    // Every island needs these together: one file instead of six (each file costs its response headers too). The
    // stores (and Vite's preload helper) come first and apart: public pages' header script uses them without Preact.
    { name: 'stores', test: (id) => /node_modules[\\/](nanostores|@nanostores[\\/]persistent)[\\/]|preload-helper/.test(id), priority: 2 },
    { name: 'preact', test: /node_modules[\\/](preact|@astrojs[\\/]preact|@nanostores[\\/]react)[\\/]/, priority: 1 },
  ] } } } }, plugins: [tailwindcss()], resolve: { noExternal: [/^@radix-ui\//, '@nanostores/react', 'react-hook-form', '@hookform/resolvers', 'recharts', /^@floating-ui\//, 'react-remove-scroll', 'react-remove-scroll-bar', 'react-style-singleton', 'use-callback-ref', 'use-sidecar', 'aria-hidden'] } },
  devToolbar: { enabled: false },
});
