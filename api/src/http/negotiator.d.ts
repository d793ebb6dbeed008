/** The part of `negotiator` (1.x, no bundled types) that encoded-body.ts and entity-tags.ts use. */
declare module 'negotiator' {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | string[] | undefined> });
    /** The best of `available` for the request's Accept-Encoding (`preferred` breaks ties of equal q), or undefined. */
    encoding(available?: string[], options?: { preferred?: string[] }): string | undefined;
    /** Those of `available` the request's Accept-Encoding takes with q > 0, best first. */
    encodings(available?: string[], options?: { preferred?: string[] }): string[];
  }
}
