/**
 * Wizard draft persistence (issue #5 "Drafts survive"): every change is written to localStorage at once
 * (instant resume after a reload or a closed tab) and to the server after a short pause (another device, a
 * cleared browser). A failed server save is retried when the browser comes back online and flushed with
 * `keepalive` when the page is hidden. On load the copy with the later `savedAt` wins. Card number and CVC are
 * never part of a draft.
 */
import { api, apiOrNull, READ_TIMEOUT_MS, TOKEN_KEY } from '../../lib/api-client.ts';
import { DRAFT_PREFIX } from '../../lib/offline-snapshot.ts';

export interface Draft { step: number; data: Record<string, unknown>; savedAt: string }
export type SyncState = 'idle' | 'saving' | 'saved' | 'local-only';

const SERVER_DELAY_MS = 1200;

/** GET/PUT/DELETE path of the server copy of draft `key` ('general' or 'course-{id}'). */
export const draftPath = (key: string): string => `/api/applications/draft?key=${encodeURIComponent(key)}`;
/** GET draftPath's answer; null when the server has no session for the request (401). */
export type ServerDraftAnswer = { draft: { step: number; data: Record<string, unknown>; updatedAt: string } | null } | null;
/** Reads the server copy; answers within READ_TIMEOUT_MS or rejects, so on a dead connection the local copy is used. */
export const readServerDraft = (key: string): Promise<ServerDraftAnswer> => apiOrNull(draftPath(key), { timeoutMs: READ_TIMEOUT_MS });

/** Removes cardNumber and cardCvc at any depth. */
export function withoutSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutSecrets) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'cardNumber' && k !== 'cardCvc').map(([k, v]) => [k, withoutSecrets(v)])) as T;
  }
  return value;
}

export function createDraftStore(userId: number, key: string, onSync: (s: SyncState) => void) {
  const localKey = `${DRAFT_PREFIX}${userId}:${key}`;
  const url = draftPath(key);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: Draft | null = null;
  let stopped = false;

  const readLocal = (): Draft | null => {
    try { const raw = localStorage.getItem(localKey); return raw ? JSON.parse(raw) as Draft : null; } catch { return null; }
  };

  async function push(): Promise<void> {
    if (!pending || stopped) return;
    const d = pending;
    onSync('saving');
    try {
      await api(url, { method: 'PUT', json: { step: d.step, data: { ...d.data, savedAt: d.savedAt } } });
      if (pending === d) pending = null;
      onSync('saved');
    } catch {
      onSync('local-only');
    }
  }
  const onOnline = () => { void push(); };
  const onHide = () => {
    if (!pending || stopped) return;
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    try { const t = localStorage.getItem(TOKEN_KEY); if (t) headers.Authorization = `Bearer ${t}`; } catch { /* ignore */ }
    const body = JSON.stringify({ step: pending.step, data: { ...pending.data, savedAt: pending.savedAt } });
    if (body.length < 60_000) void fetch(url, { method: 'PUT', headers, body, credentials: 'include', keepalive: true }).catch(() => {});
  };
  window.addEventListener('online', onOnline);
  window.addEventListener('pagehide', onHide);
  document.addEventListener('visibilitychange', () => { if (document.hidden) onHide(); });

  return {
    /** The newer of the local and the server copy, or null; `readServer` reads the server copy (a read already started, say). */
    async load(readServer: () => Promise<ServerDraftAnswer> = () => readServerDraft(key)): Promise<Draft | null> {
      const local = readLocal();
      let server: Draft | null = null;
      try {
        const r = await readServer();
        if (r?.draft) {
          const { savedAt, ...data } = r.draft.data as Record<string, unknown> & { savedAt?: string };
          server = { step: r.draft.step, data, savedAt: typeof savedAt === 'string' ? savedAt : r.draft.updatedAt };
        }
      } catch { /* offline: the local copy is all we have */ }
      const newest = local && server ? (Date.parse(local.savedAt) >= Date.parse(server.savedAt) ? local : server) : (local ?? server);
      // A local copy the server has not seen (a save cut short by a reload, a closed tab or a dropped
      // connection) is sent now, so another device resumes from the same point.
      if (newest && newest === local && (!server || Date.parse(local.savedAt) > Date.parse(server.savedAt))) {
        pending = local;
        void push();
      }
      return newest;
    },
    save(step: number, data: Record<string, unknown>): void {
      if (stopped) return;
      const d: Draft = { step, data: withoutSecrets(data), savedAt: new Date().toISOString() };
      try { localStorage.setItem(localKey, JSON.stringify(d)); } catch { /* storage full or private mode */ }
      pending = d;
      clearTimeout(timer);
      timer = setTimeout(() => { void push(); }, SERVER_DELAY_MS);
    },
    /** After a successful submit: forget both copies and stop saving. */
    async discard(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      pending = null;
      try { localStorage.removeItem(localKey); } catch { /* ignore */ }
      window.removeEventListener('online', onOnline);
      window.removeEventListener('pagehide', onHide);
      // keepalive: the request survives the navigation that usually follows, so nobody has to wait for it.
      await api(url, { method: 'DELETE', keepalive: true }).catch(() => {});
    },
  };
}
