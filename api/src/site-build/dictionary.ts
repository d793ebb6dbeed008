/**
 * A compression dictionary for the pages (issue #17 data budget; RFC 9842 Compression Dictionary Transport, the
 * `dcz` content coding: Zstandard with a raw dictionary). Every page of the site repeats the same head, header,
 * footer and island bootstrap, so each page after the first costs 4–6 KB of Brotli for 0.1–0.5 KB of its own.
 *
 * Once a build is live this writes, in the background:
 * - `_astro/dictionary.<12 hex>.txt`: the log-in page followed by the first course page of the build (an island
 *   page and a public page, so both kinds share most of their bytes with it), served immutable with
 *   `Use-As-Dictionary: match="/*", match-dest=("document" "")`. Browsers are told of it by a `Link: <…>; rel="compression-dictionary"` header
 *   on a page and fetch it when idle (about 7 KB once);
 * - `<page>.html.dcz` next to every page: the 40-byte dcz header (magic and the dictionary's SHA-256) and a zstd
 *   frame made with the dictionary (level 19);
 * - `.dictionary.json` (a dot-file, never served): `{ url, hash }`, hash the base64 SHA-256 the browser sends back as
 *   `Available-Dictionary: :<hash>:`.
 * serve.ts sends the `.dcz` copy when a request names this build's dictionary and accepts `dcz`, and the Brotli copy
 * otherwise. `match-dest` names the empty destination besides documents: the service worker fetches pages with an
 * empty destination, and a dictionary limited to documents was never offered for them (Chromium 156). Browsers
 * without the feature ignore the headers. `.dictionary.json` is written after the copies, so a page names the
 * dictionary only once every page has its copy.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { walk } from './precompress.ts';

/** Node's zstd (22.15+ and 23.8+); without it no dictionary is written and pages go out as Brotli. */
const zstd = typeof zlib.zstdCompress === 'function' ? promisify(zlib.zstdCompress) : null;

/**
 * The dictionary's `Use-As-Dictionary` value: any page path, for documents and for requests with an empty
 * destination (the service worker's page fetches; a dictionary for documents alone was never offered for them in
 * Chromium 156), so scripts, styles and images do not carry `Available-Dictionary` (about 80 bytes each).
 */
export const USE_AS_DICTIONARY = 'match="/*", match-dest=("document" "")';

/** The dot-file of a build that names its dictionary (PageDictionary as JSON). */
export const DICTIONARY_INFO = '.dictionary.json';

/** RFC 9842 §6.2: the dcz stream starts with these 8 bytes, then the 32-byte SHA-256 of the dictionary. */
const DCZ_MAGIC = Buffer.from([0x5e, 0x2a, 0x4d, 0x18, 0x20, 0x00, 0x00, 0x00]);

/** A build's page dictionary: its URL path (`/_astro/dictionary.<hex>.txt`) and base64 SHA-256 of its bytes. */
export interface PageDictionary { url: string; hash: string }

/** What one run did: the dictionary (null when the build has neither source page), copies written, duration in ms. */
export interface DictionaryResult { dictionary: PageDictionary | null; pages: number; ms: number }

/** The pages the dictionary is made of: `login/index.html`, then the course page with the lowest numeric id. */
function sourcePages(dir: string): string[] {
  const courses = path.join(dir, 'courses');
  const ids = fs.existsSync(courses) ? fs.readdirSync(courses).filter((n) => /^\d+$/.test(n)).map(Number).sort((a, b) => a - b) : [];
  const first = ids.map((id) => path.join(courses, String(id), 'index.html')).find((f) => fs.existsSync(f));
  return [path.join(dir, 'login', 'index.html'), first].filter((f): f is string => !!f && fs.existsSync(f));
}

function writeAtomically(file: string, data: Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

/**
 * Writes the dictionary, its Brotli copy, `.dictionary.json` and a `.dcz` copy of every page of the build in `dir`
 * (see the module comment); pages that already have one are skipped. Stops early, without error, when `signal`
 * aborts (the build was replaced). Throws only on file-system errors (the caller logs them; pages are then sent
 * as Brotli, as before).
 */
export async function writePageDictionary(dir: string, signal?: AbortSignal): Promise<DictionaryResult> {
  const started = Date.now();
  const sources = sourcePages(dir);
  if (!sources.length || !zstd) return { dictionary: null, pages: 0, ms: Date.now() - started };
  const bytes = Buffer.concat(sources.map((f) => fs.readFileSync(f)));
  const digest = crypto.createHash('sha256').update(bytes).digest();
  const name = `dictionary.${digest.toString('hex').slice(0, 12)}.txt`;
  const file = path.join(dir, '_astro', name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (!fs.existsSync(file)) {
    writeAtomically(file, bytes);
    writeAtomically(`${file}.br`, zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
  }
  const dictionary: PageDictionary = { url: `/_astro/${name}`, hash: digest.toString('base64') };
  let pages = 0;
  const inDotFolder = (f: string) => path.relative(dir, f).split(path.sep).some((part) => part.startsWith('.'));
  for (const page of walk(dir).filter((f) => f.endsWith('.html') && !inDotFolder(f))) {
    if (signal?.aborted) return { dictionary: null, pages, ms: Date.now() - started };
    if (fs.existsSync(`${page}.dcz`)) continue;
    const frame = await zstd(fs.readFileSync(page), { dictionary: bytes, params: { [zlib.constants.ZSTD_c_compressionLevel]: 19 } });
    writeAtomically(`${page}.dcz`, Buffer.concat([DCZ_MAGIC, digest, frame]));
    pages++;
  }
  // Named last: pages point browsers at the dictionary only once every page has its copy.
  writeAtomically(path.join(dir, DICTIONARY_INFO), Buffer.from(JSON.stringify(dictionary)));
  return { dictionary, pages, ms: Date.now() - started };
}

const known = new Map<string, PageDictionary>();

/**
 * The dictionary of the build in `dir`, or null while it has none yet (read once it exists, then kept in memory:
 * a build's dictionary never changes).
 */
export function pageDictionaryFor(dir: string): PageDictionary | null {
  const hit = known.get(dir);
  if (hit) return hit;
  let info: PageDictionary;
  try { info = JSON.parse(fs.readFileSync(path.join(dir, DICTIONARY_INFO), 'utf8')); } catch { return null; }
  if (known.size >= 16) known.clear();
  known.set(dir, info);
  return info;
}

/** True when `urlPath` names a page dictionary (any build's), which is sent with its Use-As-Dictionary header. */
export function isPageDictionary(urlPath: string): boolean {
  return /^\/_astro\/dictionary\.[0-9a-f]{12}\.txt$/.test(urlPath);
}
