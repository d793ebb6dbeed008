/**
 * Keeps a list on screen while its next page or search loads: a fetcher store (stores/fetcher.ts) answers no data
 * for a key it has not fetched yet, and a table that turned into skeleton rows at every keystroke would jump.
 */
import { useRef } from 'react';

/** `data` when there is some, else the last data this component saw (undefined before the first answer). */
export function useLastData<T>(data: T | undefined): T | undefined {
  const last = useRef(data);
  if (data !== undefined) last.current = data;
  return last.current;
}
