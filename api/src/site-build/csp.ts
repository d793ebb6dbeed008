/**
 * Per-page Content-Security-Policy for the static site (ASVS 3.4.3): after a build, every HTML file's inline
 * scripts (Astro's island bootstrap, the pre-paint theme script, small hoisted scripts) are hashed with
 * SHA-256 into `csp.json` beside the build; the server then sends each page a policy that allows exactly
 * those scripts — no 'unsafe-inline' for scripts. JSON-LD data blocks are not scripts and are skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

export const CSP_FILE = 'csp.json';
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/** SHA-256 source expressions ('sha256-…') of the inline executable scripts in one HTML document. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const m of html.matchAll(INLINE_SCRIPT)) {
    const attrs = m[1];
    if (/\bsrc\s*=/.test(attrs)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1]?.toLowerCase();
    if (type && type !== 'module' && type !== 'text/javascript' && type !== 'application/javascript') continue;
    hashes.add(`'sha256-${crypto.createHash('sha256').update(m[2], 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}

/** Writes `csp.json` ({ "<relative html path>": ["'sha256-…'", …] }) for a finished build directory. */
export function writeCspManifest(buildDir: string): void {
  const manifest: Record<string, string[]> = {};
  for (const rel of fs.readdirSync(buildDir, { recursive: true }) as string[]) {
    if (!rel.endsWith('.html')) continue;
    manifest[rel.split(path.sep).join('/')] = inlineScriptHashes(fs.readFileSync(path.join(buildDir, rel), 'utf8'));
  }
  fs.writeFileSync(path.join(buildDir, CSP_FILE), JSON.stringify(manifest));
}

/** The policy for a page whose inline scripts hash to `hashes`. */
export function pagePolicy(hashes: string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${hashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const cache = new Map<string, Record<string, string[]> | null>();
/** The manifest of a build directory (read once), or null for a build without one (then the app-wide policy stays). */
export function manifestFor(buildDir: string): Record<string, string[]> | null {
  if (!cache.has(buildDir)) {
    try { cache.set(buildDir, JSON.parse(fs.readFileSync(path.join(buildDir, CSP_FILE), 'utf8'))); } catch { cache.set(buildDir, null); }
  }
  return cache.get(buildDir)!;
}
