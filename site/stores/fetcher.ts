/**
 * Remote data of the islands, one way (issue #15 point 5): @nanostores/query with one fetcher, `api()` of
 * lib/api-client.ts on the key's parts joined ('/api/admin/stats'). A fetcher store holds
 * { data, error, loading }; it fetches when the first island subscribes, shares its answer between the islands
 * of a page, and with `revalidateInterval` polls — only while the tab is visible (nanoquery skips hidden tabs),
 * and with `revalidateOnFocus` a tab that comes back fetches at once. After an action, `store.revalidate()`
 * fetches again while the old data stays on screen; `store.mutate(data)` sets what the server now holds.
 * No automatic retry on error: the island shows the error with 'Try again' (→ `revalidate()`); polled stores try
 * again at their next tick. A key part that is null (an atom such as the signed-in user id) keeps the store idle.
 */
import { nanoquery } from '@nanostores/query';
import { api } from '../lib/api-client.ts';

export const [createFetcherStore, createMutatorStore, { invalidateKeys, revalidateKeys, mutateCache }] = nanoquery({
  fetcher: (...parts) => api(parts.join('')),
  onErrorRetry: false,
});
