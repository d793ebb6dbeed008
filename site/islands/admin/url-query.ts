/**
 * An admin list's search, filters, sort, page size and page kept in the page's address (audit C item 3): read once
 * when the list mounts, written back with history.replaceState after each change, so Back from another page, a
 * reload and a shared link (/admin/applications?status=pending&page=2&sort=applicant) show the same rows. Values
 * equal to their default are left out of the address. replaceState keeps history.state (use-back-closes marks
 * panel entries there).
 */

/** The address's query as a plain object of the `keys` present (strings, as typed), {} outside a browser. */
export function readUrlQuery<K extends string>(keys: readonly K[]): Partial<Record<K, string>> {
  if (typeof location === 'undefined') return {};
  const params = new URLSearchParams(location.search);
  const out: Partial<Record<K, string>> = {};
  for (const k of keys) { const v = params.get(k); if (v != null) out[k] = v; }
  return out;
}

/**
 * Writes `values` into the address's query (replacing the entry, not adding one), leaving out each value equal to
 * `defaults[key]` or empty; other query parameters stay. Does nothing when the address would not change.
 */
export function writeUrlQuery<K extends string>(values: Record<K, string>, defaults: Partial<Record<K, string>>): void {
  if (typeof location === 'undefined') return;
  const params = new URLSearchParams(location.search);
  for (const k of Object.keys(values) as K[]) {
    const v = values[k];
    if (v === '' || v === defaults[k]) params.delete(k); else params.set(k, v);
  }
  const search = params.toString();
  const url = `${location.pathname}${search ? `?${search}` : ''}${location.hash}`;
  if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(history.state, '', url);
}

/** `raw` as a whole number ≥ 1 when it is one, else `fallback`. */
export const positiveInt = (raw: string | undefined, fallback: number): number => {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 ? n : fallback;
};

/** `raw` when it is one of `allowed`, else `fallback`. */
export const oneOf = <T extends string>(raw: string | undefined, allowed: readonly T[], fallback: T): T =>
  (allowed as readonly string[]).includes(raw ?? '') ? (raw as T) : fallback;
