/**
 * Entity tags per content coding (RFC 9110 §8.8.3): a body sent gzip- or brotli-encoded is a representation of its
 * own, so its validator differs from the identity one's, or a cache holding the gzip bytes could be told by a 304
 * that they are what an identity (or br) request gets (RFC 9111 §4.3.4 picks the stored response by its validator).
 * As Apache's mod_deflate and mod_brotli do, the coding's name is added to the identity tag: `"abc"` → `"abc-gzip"`,
 * `W/"abc"` → `W/"abc-br"`. Used by the public read cache (public-cache.ts) and the static site (site-build/serve.ts).
 */
import Negotiator from 'negotiator';

/**
 * The entity tag of the representation `coding` of the body whose identity tag is `identityTag` (a quoted
 * entity-tag, strong or weak). 'identity' (or an empty coding) gives `identityTag` unchanged; a tag already ending
 * in `-<coding>"` is not suffixed twice. Never throws.
 */
export function codingETag(identityTag: string, coding: string | undefined): string {
  const c = (coding ?? '').trim().toLowerCase();
  if (!c || c === 'identity' || !identityTag.endsWith('"') || identityTag.endsWith(`-${c}"`)) return identityTag;
  return `${identityTag.slice(0, -1)}-${c}"`;
}

/** The entity tags listed in an If-None-Match value (`*` kept as is), in order; [] for none. */
export function ifNoneMatchTags(header: string | string[] | undefined): string[] {
  if (!header) return [];
  return String(header).match(/\*|(?:W\/)?"[^"]*"/g) ?? [];
}

const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);

/**
 * The content codings among `codings` (e.g. ['br', 'gzip']) that `acceptEncoding` takes with q > 0 (RFC 9110
 * §12.5.3, negotiated by `negotiator` as the `compression` package does; `*` stands for those not named). None when the
 * header is absent: such a request gets identity (the `compression` package's rule).
 */
export function acceptedCodings(acceptEncoding: string | string[] | undefined, codings: string[]): string[] {
  if (!acceptEncoding) return [];
  return new Negotiator({ headers: { 'accept-encoding': String(acceptEncoding) } }).encodings(codings).filter((c) => codings.includes(c));
}

/**
 * Evaluates If-None-Match (RFC 9110 §13.1.2, weak comparison) for a GET whose body has the identity tag
 * `identityTag`, answered in `chosen` ('identity', 'gzip', 'br', …), for a request that also accepts `accepted`
 * codings. Returns the entity tag a 304 carries, or null when the body must be sent.
 *
 * A listed tag matches when it names a representation this request may be given: the chosen one, the identity one
 * (identity is always acceptable: it is what is sent when no coding is), or another coding the request accepts.
 * The 304 then carries that matched tag, so a cache freshens exactly the copy it holds (RFC 9111 §4.3.4) — never a
 * copy in a coding the request did not accept. Taking the identity and other accepted tags, not only the chosen one,
 * keeps the About page's check cheap: the site build reads the announcements over http with its own Accept-Encoding
 * (Node's fetch: gzip), the browser then asks over https (br chosen) with the build's tag (issue #17). `*` matches
 * the chosen representation.
 */
export function notModifiedETag(ifNoneMatch: string | string[] | undefined, identityTag: string, chosen: string, accepted: string[] = []): string | null {
  const listed = ifNoneMatchTags(ifNoneMatch);
  if (!listed.length) return null;
  const chosenTag = codingETag(identityTag, chosen);
  if (listed.includes('*')) return chosenTag;
  const candidates = [chosenTag, identityTag, ...accepted.map((c) => codingETag(identityTag, c))];
  const held = new Set(listed.map(opaque));
  return candidates.find((tag) => held.has(opaque(tag))) ?? null;
}
