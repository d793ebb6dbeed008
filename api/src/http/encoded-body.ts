/**
 * A response body encoded once for every request that reads it: the public read cache (public-cache.ts) stores
 * the identity bytes with their gzip and brotli forms when it makes an entry, and answers a hit with the one the
 * request's Accept-Encoding takes, so a cached read is never compressed again (performance regression of 4898501:
 * the `compression` middleware re-gzipped the cached course list on every browser read, ≈2.5–3k req/s against
 * 7.5–26k). Node's zlib does the encoding; the rules follow the `compression` package the other /api answers go
 * through (api-compression.ts): bodies under 1 KB stay identity, brotli is preferred to gzip at equal q, deflate
 * is not offered (every browser that sends deflate sends gzip too).
 */
import zlib from 'node:zlib';
import Negotiator from 'negotiator';

/** A body in the encodings it can be sent in; `gzip` and `br` are absent for bodies under ENCODE_THRESHOLD. */
export interface EncodedBody { identity: Buffer; gzip?: Buffer; br?: Buffer }

export type BodyEncoding = 'br' | 'gzip' | 'identity';

/** Bytes below which a body is sent as is (the `compression` package's default threshold, 1 KB). */
const ENCODE_THRESHOLD = 1024;

/**
 * Brotli quality for a cached body (0–11). Measured (2 shared cores, a benchmark running) on a 206 KB course list
 * of 300 courses made from the seed's: gzip -6 1.1 ms → 7.3 KB; br q4 0.7 ms → 6.0 KB; q5 1.1 ms → 4.4 KB;
 * q11 430 ms → 3.6 KB. The seed's 9.4 KB list: gzip 2.2 KB, q5 2.0 KB in 0.4 ms. Paid once per cache entry.
 */
const BROTLI_QUALITY = 5;

/** `text` as UTF-8 bytes, plus gzip (zlib default level) and brotli (BROTLI_QUALITY) when ENCODE_THRESHOLD bytes or more. */
export function encodeBody(text: string): EncodedBody {
  const identity = Buffer.from(text, 'utf8');
  if (identity.length < ENCODE_THRESHOLD) return { identity };
  return {
    identity,
    gzip: zlib.gzipSync(identity),
    br: zlib.brotliCompressSync(identity, { params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
    } }),
  };
}

/** The encodings a cached body has, in the order preferred at equal q (the `compression` package's order). */
const ENCODINGS: BodyEncoding[] = ['br', 'gzip'];

/**
 * The encoding to answer with for an Accept-Encoding header (RFC 9110 §12.5.3), negotiated by `negotiator` as the
 * `compression` package does: the highest q among br and gzip (`*` stands for one not named), br first at equal q;
 * 'identity' when the header is absent or accepts neither with q > 0 (as the `compression` package, identity is sent
 * even when refused). Never throws.
 */
export function acceptedEncoding(header: string | string[] | undefined): BodyEncoding {
  if (!header) return 'identity';
  const chosen = new Negotiator({ headers: { 'accept-encoding': String(header) } }).encoding(ENCODINGS, { preferred: ENCODINGS });
  return chosen === 'br' || chosen === 'gzip' ? chosen : 'identity';
}

/**
 * What to send of `body` for a request's Accept-Encoding: the bytes and the encoding they are in ('identity' when
 * the body has no encoded form or none is accepted). Never throws.
 */
export function pickEncoded(body: EncodedBody, acceptEncoding: string | string[] | undefined): { encoding: BodyEncoding; bytes: Buffer } {
  if (!body.gzip && !body.br) return { encoding: 'identity', bytes: body.identity };
  const encoding = acceptedEncoding(acceptEncoding);
  const bytes = encoding === 'identity' ? undefined : body[encoding];
  return bytes ? { encoding, bytes } : { encoding: 'identity', bytes: body.identity };
}
