/**
 * Per-page Content-Security-Policy for the static site (ASVS 3.4.3): after a build, every HTML file's inline
 * scripts (Astro's island bootstrap, the pre-paint theme script, small hoisted scripts) are hashed with
 * SHA-256 into `csp.json` beside the build; the server then sends each page a policy that allows exactly
 * those scripts — no 'unsafe-inline' for scripts. JSON-LD data blocks are not scripts and are skipped.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { parse, type DefaultTreeAdapterMap } from 'parse5';

export const CSP_FILE = 'csp.json';
const EXECUTABLE_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript']);

type Node = DefaultTreeAdapterMap['node'];

/**
 * SHA-256 source expressions ('sha256-…') of the inline executable scripts in one HTML document. The document
 * is parsed with parse5 (the WHATWG parsing algorithm browsers use), so only real `<script>` elements without
 * `src` count — never '<script>' text inside an attribute such as an admin-written og:description, a
 * comment or a textarea (ASVS 5.0 V3.4.3). JSON-LD and other data blocks are not scripts and are skipped.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  const stack: Node[] = [parse(html)];
  while (stack.length) {
    const node = stack.pop()!;
    if ('tagName' in node && node.tagName === 'script') {
      const attrs = new Map(node.attrs.map((a) => [a.name, a.value]));
      const type = (attrs.get('type') ?? '').trim().toLowerCase();
      if (!attrs.has('src') && EXECUTABLE_TYPES.has(type)) {
        const text = node.childNodes.map((c) => ('value' in c && c.nodeName === '#text' ? c.value : '')).join('');
        hashes.add(`'sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}'`);
      }
    }
    if ('childNodes' in node) stack.push(...node.childNodes);
    if ('content' in node && node.content) stack.push(node.content as Node);
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

/**
 * The policy for a page whose inline scripts hash to `hashes`. `connect-src` and `font-src` are left to `default-src
 * 'self'`, which they fall back to (CSP3 §6.1), as `img-src` is not (data: and blob: images).
 */
export function pagePolicy(hashes: string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${hashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
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
