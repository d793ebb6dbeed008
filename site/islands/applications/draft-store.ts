/**
 * Wizard draft persistence (issue #5 "Drafts survive"): every change is written to localStorage at once
 * (instant resume after a reload or a closed tab) and to the server after a short pause (another device, a
 * cleared browser). A failed server save is retried when the browser comes back online and flushed with
 * `keepalive` when the page is hidden. Card number and CVC are never part of a draft.
 *
 * Two tabs or devices (README "Drafts from two tabs or devices"): the server numbers its copy (`revision`), and a
 * save names the revision this copy descends from. When another tab or device saved in between, the server refuses
 * (409 with its copy) and the store holds further saves — they stay on this device — until the person chooses:
 * `takeTheirs()` (load the newer version) or `keepMine()` (save this one over it). On load, a local copy with
 * changes the server has not seen wins when it descends from the server's copy, and is such a conflict when the
 * server moved on meanwhile (an offline phone, a tab left open); otherwise the server's copy wins. A 409 whose copy
 * is one this store wrote itself (a keepalive save, a lost answer, this browser's other tab resending it) is no
 * conflict: its revision is adopted.
 *
 * An ended login (401 on a save; "no lost work" audit, November 2026) is not being offline: the store opens "Your
 * session has ended" (save-api.ts askToSignInAgain, as uploads and Submit do), keeps every change on this device
 * meanwhile ('signed-out'), and sends the draft as soon as the same user has logged in again — from that dialog, or
 * from any other on the page (an upload's, Submit's, the status line's "Log in again").
 *
 * Whose draft (security audit, November 2026: "a wizard draft can be saved into another account on a shared
 * computer"): the session cookie and bearer token are the browser's, shared by its tabs, so by the time this tab
 * saves, another person may be logged in. Every save — the wizard's and the page-close one — names the draft's user
 * (`forUserId`), and the server refuses a save for anyone but the session's user (409 draft_other_user, nothing
 * stored). That refusal is handled like the 401 — kept on this device, and "Your session has ended" offers to log in
 * as the draft's user — but says why ('other-account': DRAFT_OTHER_USER in the status line and the dialog), since
 * nobody was logged out and logging in there logs the other account out of this browser. A log-in is only taken as
 * the draft's user's when the server says the session is theirs (GET /api/auth/me) or the page's own log-in dialog
 * logged them in. `discard()` names the draft's user too, so "Start over" or a submit in this tab never deletes the
 * draft of whoever is logged in now (DELETE … &forUserId, the same 409).
 *
 * Log-out (audit, November 2026: a grade typed and then "Log out" within the 1.2 s pause was lost, because the
 * log-out erased the only copy): the store gives stores/session.ts a `flush` (sendBeforeLogout) that sends a waiting
 * change at once and says whether everything reached the server; the log-out runs it first, and so does a log-out in
 * another tab of this browser (session.ts asks this tab over a BroadcastChannel where the browser has one). The status line says
 * 'saving' from the first change until the server has it, never 'saved' for a change only this device holds.
 *
 * A save that gets no answer, or a 408, 429 or 5xx, is tried again by itself after DRAFT_RETRY_MS (2 s, 5 s, 15 s,
 * 30 s, then every 60 s while the page is open; never before the answer's Retry-After), at once when the browser
 * comes back online or the tab is shown again, and at the next change ("no lost work" QA audit, 2026-11-28: a save
 * that failed while the phone was online said 'offline' and waited for an `online` event that never came). Meanwhile
 * the state is 'retrying', or 'local-only' when the browser says it is offline. Any other refusal would be the same
 * again, so it is only sent again with the next change: a 404 (the key's course does not exist, 'Course Not Found':
 * a link to an unknown course) is 'no-course', anything else 'refused'. `moveTo` puts the draft under another key
 * (the course the applicant chose instead of the link's unknown or closed one).
 */
import { DRAFT_OTHER_USER, DRAFT_OTHER_USER_TITLE, DRAFT_SAVE_PAUSE_MS } from '#contracts/application-steps.ts';
import { api, apiOrNull, ApiError, READ_TIMEOUT_MS, storedToken } from '../../lib/api-client.ts';
import { DRAFT_PREFIX } from '../../lib/offline-snapshot.ts';
import { $session, sendBeforeLogout } from '../../stores/session.ts';
import { answerOtherTabs } from '../../lib/pending-saves-channel.ts';
import { askToSignInAgain } from '../ui/save-api.ts';

/**
 * A copy of the wizard: `revision` is the server revision it descends from (undefined: none seen, or a copy written
 * before revisions existed), `dirty` whether it has changes the server has not acknowledged (undefined: written
 * before revisions existed).
 */
export interface Draft { step: number; data: Record<string, unknown>; savedAt: string; revision?: number; dirty?: boolean }
/**
 * The save state the wizard shows. 'local-only': the server could not be reached and the browser is offline;
 * 'retrying': the same while the browser is online (no answer, a time-out or a server failure), tried again by itself;
 * 'no-course': the server has no course for the key (404 'Course Not Found'); 'refused': another refusal (a 4xx);
 * 'signed-out': the server answered 401 (the login ended), so the copy is on this device until the person logs in again;
 * 'other-account': the same, after a 409 draft_other_user (another account is logged in on this browser now).
 */
export type SyncState = 'idle' | 'saving' | 'saved' | 'local-only' | 'retrying' | 'no-course' | 'refused' | 'conflict' | 'signed-out' | 'other-account';

/** Waits, ms, before each retry of a save that failed (module comment); the last one repeats while the page is open. */
export const DRAFT_RETRY_MS = [2000, 5000, 15000, 30000, 60000];
/**
 * The longest wait, ms, before a retry (1 h), whatever the Retry-After says: setTimeout takes at most 2^31 - 1 ms and
 * fires at once for more (a Retry-After of 30 days would retry in a tight loop).
 */
export const DRAFT_RETRY_MAX_MS = 3_600_000;

/** A Retry-After header (delay-seconds or an HTTP date, RFC 9110 §10.2.3) in ms from `now`; 0 when absent or past. */
export function retryAfterMs(value: string | null, now = Date.now()): number {
  const v = value?.trim() ?? '';
  const ms = /^\d+$/.test(v) ? Number(v) * 1000 : Date.parse(v) - now;
  return ms > 0 ? ms : 0;
}

/** What PUT /api/applications/draft answers: the stored draft, or an error (409 with the server's draft). */
type DraftAnswer = { draft?: ServerDraft; error?: { code?: string } };

/** GET/PUT/DELETE path of the server copy of draft `key` ('general' or 'course-{id}'). */
export const draftPath = (key: string): string => `/api/applications/draft?key=${encodeURIComponent(key)}`;
/** The server's copy as GET, PUT and a PUT's 409 answer it. */
type ServerDraft = { step: number; data: Record<string, unknown>; updatedAt: string; revision: number };
/** GET draftPath's answer; null when the server has no session for the request (401). */
export type ServerDraftAnswer = { draft: ServerDraft | null } | null;
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

/** JSON with object keys sorted: the server's jsonb does not keep the order the wizard wrote them in. */
const canon = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x)
  ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x));

/** The server's copy as a Draft (its `savedAt` travels inside `data`), acknowledged at its revision. */
function fromServer(r: ServerDraft): Draft {
  const { savedAt, ...data } = r.data as Record<string, unknown> & { savedAt?: string };
  return { step: r.step, data, savedAt: typeof savedAt === 'string' ? savedAt : r.updatedAt, revision: r.revision, dirty: false };
}

/**
 * The draft store of `userId`'s wizard `key`. `onSync` hears the save state; `onConflict` hears the server's copy
 * when it and this one went separate ways (saves are held from then on until takeTheirs or keepMine).
 *
 * localStorage: `apply-draft:<user>:<key>` is the device's copy (shared by the browser's tabs, so the last tab to
 * save writes it); a copy in conflict is kept apart, under `…:held:<tab>`, until the person chooses, so another tab
 * saving meanwhile cannot overwrite it, and a reload (of any tab) finds it and asks again. Log-out erases both.
 */
export function createDraftStore(userId: number, key: string, onSync: (s: SyncState) => void, onConflict: (theirs: Draft) => void) {
  let localKey = '';
  let heldPrefix = '';
  let heldKey = '';
  let url = '';
  /** The keys of draft `k` (localStorage and the server's). */
  const keysOf = (k: string) => {
    key = k;
    localKey = `${DRAFT_PREFIX}${userId}:${k}`;
    heldPrefix = `${localKey}:held:`;
    heldKey = heldPrefix + Math.random().toString(36).slice(2);
    url = draftPath(k);
  };
  keysOf(key);
  // The server copy and the device's copy (localStorage key) to delete once this one is saved under its new key
  // (moveTo), or ''. Both are kept until then, and for good if the person loads the new key's copy instead (takeTheirs).
  let movedFrom = '';
  let movedFromLocal = '';
  // The retry of a failed save (DRAFT_RETRY_MS), and how many failed in a row.
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let tries = 0;
  // The last save was refused with a 4xx that is not tried again (404 and the like): only a change sends it again.
  let refused = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: Draft | null = null;
  let stopped = false;
  let base: number | undefined;
  let conflict: Draft | null = null;
  let sending = false;
  let sendAgain = false;
  // The server answered 401: saves stay on this device until the person logs in again (see the module comment).
  let signedOut = false;
  // Why: false for a 401, true for a 409 draft_other_user (another account is logged in on this browser).
  let otherAccount = false;
  // The bearer token stored when the 401 came: a log-in replaces it.
  let tokenAtSignOut: string | null = null;
  // The last copy saved or shown, as [step, data] JSON: an unchanged form is not saved again (a step's first
  // render, a reset), so merely opening a tab never moves the revision under another tab's feet.
  let lastJson = '';
  // savedAt of every copy written since the server last acknowledged one: a 409 carrying one of them is our own.
  let ours = new Set<string>();
  // The answers (canon JSON of data) of the server copy this one descends from: a 409 whose copy has the same
  // answers (another tab only moved to another step, or resent them) is no conflict either.
  let baseData = '';
  // The last state told to onSync: a change after 'saved' turns it to 'saving' (the server does not have it yet).
  let told: SyncState = 'idle';
  const tell = (s: SyncState) => { told = s; onSync(s); };
  // The save being sent now (push), for flush to wait on; and whether the last one failed to reach the server.
  let inFlight: Promise<void> = Promise.resolve();
  let failed = false;

  const read = (k: string): Draft | null => {
    try { const raw = localStorage.getItem(k); return raw ? JSON.parse(raw) as Draft : null; } catch { return null; }
  };
  /** Writes `d` under localStorage key `k`; false when it could not (storage full or private mode). */
  const write = (k: string, d: Draft): boolean => { try { localStorage.setItem(k, JSON.stringify(d)); return true; } catch { return false; } };
  const unhold = () => { try { localStorage.removeItem(heldKey); } catch { /* ignore */ } };
  const body = (d: Draft) => ({ step: d.step, data: { ...d.data, savedAt: d.savedAt }, revision: base, forUserId: userId });

  /** The server's copy and `pending` went separate ways: keep pending apart and ask. */
  function disagree(theirs: Draft): void {
    conflict = theirs;
    if (pending) write(heldKey, pending);
    tell('conflict');
    onConflict(theirs);
  }

  function acknowledged(d: Draft, revision: number): void {
    base = revision;
    baseData = canon(d.data);
    ours = new Set([d.savedAt]);
    if (pending === d) pending = null;
    write(localKey, { ...(pending ?? d), revision, dirty: pending !== null });
    unhold();
  }

  function push(): Promise<void> {
    if (!pending || stopped || conflict) return Promise.resolve();
    if (signedOut) { tell(otherAccount ? 'other-account' : 'signed-out'); return Promise.resolve(); }
    if (sending) { sendAgain = true; return inFlight; }
    inFlight = send(pending);
    return inFlight;
  }
  async function send(d: Draft): Promise<void> {
    sending = true;
    failed = refused = false;
    clearTimeout(retryTimer);
    tell('saving');
    const at = url;
    // 0: no answer (no connection, the server down, WRITE_TIMEOUT_MS passed).
    let status = 0;
    let answer = null as DraftAnswer | null;
    let wait = 0;
    try {
      answer = await api<DraftAnswer | null>(url, { method: 'PUT', json: body(d) });
      status = 200;
    } catch (e) {
      // An ApiError is the server's refusal; anything else (NetworkError, RequestTimeoutError, a 2xx page that is not
      // JSON) got no answer from the API.
      if (e instanceof ApiError) { status = e.status; answer = e.body as DraftAnswer | null; wait = retryAfterMs(e.retryAfter); }
    }
    // A 2xx without the saved draft is not the API's (a captive portal's or a proxy's page): no answer, tried again.
    if (status >= 200 && status < 300 && !answer?.draft) status = 0;
    // Disposed or discarded meanwhile: this store no longer speaks for the page (no state, no dialog, no writes).
    if (stopped) { sending = false; return; }
    try {
      const theirs = status === 409 && answer?.draft ? fromServer(answer.draft) : undefined;
      // Moved meanwhile (moveTo): the answer is the old key's; the draft goes to the new one.
      if (at !== url) sendAgain = true;
      else if (status < 300 && answer?.draft) {
        tries = 0;
        acknowledged(d, answer.draft.revision);
        if (movedFrom) {
          void api(`${movedFrom}&forUserId=${userId}`, { method: 'DELETE' }).catch(() => {});
          try { localStorage.removeItem(movedFromLocal); } catch { /* ignore */ }
          movedFrom = movedFromLocal = '';
        }
        tell(pending ? 'saving' : 'saved');
      }
      else if (status === 401) endedLogin(false);
      else if (status === 409 && answer?.error?.code === 'draft_other_user') endedLogin(true);
      else if (!theirs) {
        failed = true;
        // No answer, 408, 429 or 5xx: tried again by itself. Any other refusal would be the same again.
        const again = !status || status === 408 || status === 429 || status >= 500;
        refused = !again;
        if (again) retryTimer = setTimeout(() => { void push(); }, Math.min(DRAFT_RETRY_MAX_MS, Math.max(wait, DRAFT_RETRY_MS[Math.min(tries++, DRAFT_RETRY_MS.length - 1)]!)));
        tell(status === 404 ? 'no-course' : !again ? 'refused' : navigator.onLine ? 'retrying' : 'local-only');
      }
      else if (pending && pending.savedAt === theirs.savedAt) { acknowledged(pending, theirs.revision!); tell('saved'); }
      // An older copy of ours, or the same answers: send ours on top of it.
      else if (ours.has(theirs.savedAt) || [baseData, canon(pending?.data)].includes(canon(theirs.data))) { base = theirs.revision; baseData = canon(theirs.data); sendAgain = true; }
      else disagree(theirs);
    } finally {
      sending = false;
    }
    if (sendAgain) { sendAgain = false; void push(); }
  }
  /**
   * A save answered 401 (`other` false), or 409 draft_other_user (`other` true: the browser is logged in as someone
   * else now): hold saves and ask the person to log in again (the dialog is shared with the page's other callers,
   * and names the page's user), saying so when another account is logged in.
   */
  function endedLogin(other: boolean): void {
    signedOut = true;
    otherAccount = other;
    tokenAtSignOut = storedToken();
    tell(other ? 'other-account' : 'signed-out');
    askAgain();
  }
  /** "Your session has ended"; titled DRAFT_OTHER_USER_TITLE, with DRAFT_OTHER_USER as its text, when another account is logged in. */
  function askAgain(): void {
    void askToSignInAgain(otherAccount ? { title: DRAFT_OTHER_USER_TITLE, description: DRAFT_OTHER_USER } : undefined).then(loggedIn, () => {});
  }
  /**
   * The person logged in again (any dialog on the page): send what was kept on this device — if it was the draft's
   * user (the dialogs set the page's user from the log-in's answer). The server checks it again (forUserId).
   */
  function loggedIn(ok: boolean): void {
    if (!ok || !signedOut || stopped || $session.get().user?.id !== userId) return;
    signedOut = false;
    void push();
  }
  /**
   * Sends a change still waiting for its pause now, and waits for every save under way (sendAgain included).
   * Resolves true when the server has everything this store holds; false when something stays on this device only
   * (no connection, a server failure, an ended login, another account, or a conflict awaiting the person's choice).
   */
  async function flush(): Promise<boolean> {
    clearTimeout(timer);
    while (pending && !stopped && !conflict && !signedOut) {
      await (sending ? inFlight : push());
      if (failed) break;
    }
    return !pending || stopped;
  }
  const stopFlushingAtLogout = sendBeforeLogout(flush);
  const stopAnsweringOtherTabs = answerOtherTabs(userId, flush);
  const onOnline = () => { if (!refused) void push(); };
  // Shown again (the applicant back in the tab): a failed save is tried again now; hidden: sent with keepalive (onHide).
  const onVisibility = () => { if (document.hidden) onHide(); else if (failed && !refused) void push(); };
  // A log-in from another dialog (an upload's, Submit's) sets the session's user again, as the same account. Other
  // updates set it too (the session check run again once online, a profile save), so only one that comes with a new
  // bearer token counts: every log-in stores the new session's token (stores/session.ts requestLogin) before it sets the user.
  // A new token may be another person's, though (a log-in in another tab; the page's user can be the device's
  // last-known one): the server must say the session is the draft's user's before anything is resent.
  const unlisten = $session.listen((s) => {
    const token = storedToken();
    if (!signedOut || s.user?.id !== userId || token === tokenAtSignOut) return;
    void apiOrNull<{ user: { id: number } }>('/api/auth/me', { timeoutMs: READ_TIMEOUT_MS })
      .then((r) => { if (r?.user.id === userId && storedToken() === token) loggedIn(true); }, () => {});
  });
  const onHide = () => {
    if (!pending || stopped || conflict || signedOut) return;
    // keepalive bodies are limited to 64 KiB.
    if (JSON.stringify(body(pending)).length < 60_000) void api(url, { method: 'PUT', json: body(pending), keepalive: true }).catch(() => {});
  };
  function save(step: number, data: Record<string, unknown>): void {
    if (stopped) return;
    const clean = withoutSecrets(data);
    const json = JSON.stringify([step, clean]);
    if (json === lastJson) return;
    lastJson = json;
    const d: Draft = { step, data: clean, savedAt: new Date().toISOString(), revision: base, dirty: true };
    ours.add(d.savedAt);
    pending = d;
    clearTimeout(timer);
    // In a conflict the copy stays on this device, apart, until the person chooses.
    if (conflict) { write(heldKey, d); return; }
    write(localKey, d);
    // Not 'Draft saved' while this change waits for its pause (the states that say where it is kept stay).
    if (told === 'saved' || told === 'idle') tell('saving');
    timer = setTimeout(() => { void push(); }, DRAFT_SAVE_PAUSE_MS);
  }
  window.addEventListener('online', onOnline);
  window.addEventListener('pagehide', onHide);
  document.addEventListener('visibilitychange', onVisibility);
  /** Stops every timer and listener of this store (nothing is deleted: the device's copy stays). */
  function stop(): void {
    stopped = true;
    clearTimeout(timer);
    clearTimeout(retryTimer);
    window.removeEventListener('online', onOnline);
    window.removeEventListener('pagehide', onHide);
    document.removeEventListener('visibilitychange', onVisibility);
    unlisten();
    stopFlushingAtLogout();
    stopAnsweringOtherTabs();
  }

  return {
    /**
     * The copy to resume from, or null (see the module docstring for which); `readServer` reads the server copy (a
     * read already started, say). A copy held in a conflict (this tab's before a reload, or a closed tab's) comes
     * first; a local copy the server has not seen is sent now; one that conflicts with the server's is reported to
     * onConflict before this resolves.
     */
    async load(readServer: () => Promise<ServerDraftAnswer> = () => readServerDraft(key)): Promise<Draft | null> {
      let held: Draft | null = null;
      try {
        for (const k of Object.keys(localStorage)) {
          const h = k.startsWith(heldPrefix) ? read(k) : null;
          if (h && (!held || h.savedAt > held.savedAt)) { held = h; heldKey = k; }
        }
      } catch { /* storage unavailable */ }
      const local = held ? { ...held, dirty: true } : read(localKey);
      let server: Draft | null = null;
      let reached = false;
      try {
        const r = await readServer();
        reached = r !== null;
        if (r?.draft) server = fromServer(r.draft);
      } catch { /* offline: the local copy is all we have */ }
      // A copy from before revisions: unsynced when it is newer than the server's (the old rule), based on nothing known.
      const dirty = local !== null && local.savedAt !== server?.savedAt && (local.dirty ?? (!server || Date.parse(local.savedAt) > Date.parse(server.savedAt)));
      if (!dirty) {
        base = (server ?? local)?.revision;
        baseData = canon((server ?? local)?.data);
        if (held) unhold();
        // What is on screen is what the server holds (or a new application, nothing typed yet): nothing to send.
        if (reached) tell('saved');
        return server ?? local;
      }
      base = local.revision;
      ours = new Set([local.savedAt]);
      pending = { ...local, dirty: true };
      // Changes made here on an older copy than the server's: ask, never overwrite one with the other.
      if (server && local.revision !== server.revision) disagree(server);
      // Unsynced changes on top of the server's copy, or with no server copy reached (a save cut short by a reload,
      // a closed tab or a dropped connection): sent now, so another device resumes from the same point.
      else void push();
      return local;
    },
    /** Records `step` and `data` as the form on screen without saving them (after a load or takeTheirs shows a copy). */
    shown(step: number, data: Record<string, unknown>): void {
      lastJson = JSON.stringify([step, withoutSecrets(data)]);
    },
    /** Keeps the form (`step`, `data`) on this device now and on the server after a pause, unless unchanged. */
    save,
    /** "Load the newer version": the server's copy from the conflict becomes this one (show it, then call shown()). */
    takeTheirs(): Draft | null {
      const theirs = conflict;
      if (!theirs) return null;
      conflict = null;
      pending = null;
      // The copy moved here (moveTo) is abandoned: the old key's copies, server and device, are kept, not deleted.
      movedFrom = movedFromLocal = '';
      clearTimeout(timer);
      base = theirs.revision;
      baseData = canon(theirs.data);
      ours = new Set([theirs.savedAt]);
      write(localKey, theirs);
      unhold();
      tell('saved');
      return theirs;
    },
    /** "Keep my changes": saves `step` and `data` (the form on screen) over the server's copy from the conflict, now. */
    keepMine(step: number, data: Record<string, unknown>): void {
      if (!conflict) return;
      base = conflict.revision;
      baseData = canon(conflict.data);
      conflict = null;
      lastJson = '';
      unhold();
      save(step, data);
      clearTimeout(timer);
      void push();
    },
    /**
     * Keeps the draft under `newKey` from now on (the course the applicant chose instead of the link's unknown or closed
     * one): the device's copy moves now, the server's once it is saved under `newKey` (the old key's copy is deleted
     * then); a draft the server already keeps under `newKey` is a conflict, as from another tab. Call save() next with
     * the form: it is sent even if unchanged. The old key's device copy is kept until the server has the new one too
     * (so a full storage or a lost conflict loses nothing); takeTheirs keeps both old copies for good. Nothing happens
     * in a conflict (the choice comes first), after discard or dispose, or for the same key. Returns whether it moved.
     */
    moveTo(newKey: string): boolean {
      if (newKey === key || stopped || conflict) return false;
      // A second move before the first reached the server: the copy written under the intermediate key goes.
      if (movedFromLocal) { try { localStorage.removeItem(localKey); } catch { /* ignore */ } }
      movedFrom ||= url;
      movedFromLocal ||= localKey;
      keysOf(newKey);
      // Back to the key it was first moved from: nothing there to delete any more.
      if (url === movedFrom) movedFrom = movedFromLocal = '';
      if (pending) write(localKey, pending);
      base = undefined;
      baseData = '';
      lastJson = '';
      tries = 0;
      return true;
    },
    /**
     * Opens "Your session has ended" for a draft kept on this device after a 401 or a 409 draft_other_user (the
     * status line's "Log in again"); logging in sends it. Nothing happens unless the store is 'signed-out' or 'other-account'.
     */
    logInAgain(): void {
      if (signedOut) askAgain();
    },
    /**
     * After a successful submit, or "Start over": forget both copies and stop saving. The server copy is deleted only
     * if the session is still the draft's user's (forUserId; otherwise 409 draft_other_user, nothing deleted).
     */
    async discard(): Promise<void> {
      stop();
      pending = null;
      try { localStorage.removeItem(localKey); } catch { /* ignore */ }
      unhold();
      // keepalive: the request survives the navigation that usually follows, so nobody has to wait for it.
      await api(`${url}&forUserId=${userId}`, { method: 'DELETE', keepalive: true }).catch(() => {});
    },
    /**
     * Releases the store (the wizard's user or course changed, or it unmounted): its timers, retries and listeners
     * stop, so an abandoned store never saves again — say with the previous user's forUserId, opening "Your session
     * has ended" for someone no longer the page's. Deletes nothing; a save under way is sent but its answer ignored.
     */
    dispose: stop,
  };
}
