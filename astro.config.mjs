// Astro pre-renders the public site from the API at build time (DESIGN §1).
// SITE_OUT_DIR is set by the server's rebuild-on-publish; SITE_API_URL points the content loader at the API.
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import tailwindcss from '@tailwindcss/vite';

export default defineConfig({
  srcDir: './site',
  output: 'static',
  outDir: process.env.SITE_OUT_DIR || './dist',
  // One cache per DATA_DIR, so two servers (or a benchmark) building at once do not share a content store.
  cacheDir: process.env.SITE_CACHE_DIR || './node_modules/.astro',
  site: process.env.PUBLIC_URL || 'http://localhost:4321',
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'always' },
  integrations: [react(), sitemap({ filter: (page) => !/\/(admin|dashboard|my-applications|apply|applications|profile|auth|login|register|register-simple|forgot-password|reset-password)(\/|$)/.test(new URL(page).pathname) && !/^\/courses\/not-found\/?$/.test(new URL(page).pathname) })],
  vite: { plugins: [tailwindcss()] },
  devToolbar: { enabled: false },
});
