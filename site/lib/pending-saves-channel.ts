/**
 * Log-out in one tab while another tab's application change waits for its pause (review, November 2026: the log-out
 * asked UNSENT_AT_LOGOUT about a change the other tab was about to send): the logging-out tab asks the browser's
 * other tabs, over the BroadcastChannel `college.pending-saves`, to send now. A browser without BroadcastChannel
 * (iOS 15.0–15.3), or one that refuses it (an opaque origin: SecurityError), asks the question as before.
 *
 * Its own module, not stores/session.ts, so that pages without a wizard (the dashboard: issue #17's 40 KB of
 * JavaScript) do not load it: the wizard's draft store answers (answerOtherTabs), and log-out imports the asking side
 * only when a local draft copy holds unsent changes.
 */

/**
 * 'send': please send `userId`'s waiting changes now (a tab whose wizard is another account's stays silent: its
 * answer would not be about this log-out); 'busy': this tab is on it; 'done': it has finished, `sent` as its stores
 * answered (false: something stays on that device only). Answers name the request (`id`) and the answerer.
 */
type SavesMessage = { kind: 'send'; id: string; userId: number } | { kind: 'busy'; id: string; tab: string } | { kind: 'done'; id: string; tab: string; sent: boolean };
const SAVES_CHANNEL = 'college.pending-saves';
/** How long log-out waits for the other tabs' saves (ms); a tab that does not answer (closed, frozen) must not hold it. */
const OTHER_TABS_WAIT_MS = 2000;
/**
 * How long after the request, or after the last busy tab finished, another tab may still say 'busy' (ms). Past it
 * with no tab at work, an unsent copy is one no open tab holds (a closed tab's), and waiting longer sends nothing.
 */
const ANSWER_GRACE_MS = 300;
const thisTab = Math.random().toString(36).slice(2);
/** Requests this tab sent, which its own listener must not answer (another channel object in the same tab gets them). */
const askedHere = new Set<string>();
/** Each draft store's flush, with the account its wizard belongs to. */
const senders = new Map<() => Promise<boolean>, number>();
let listening: BroadcastChannel | null = null;

/** The channel, or null where the browser has none (Safari < 15.4) or refuses one. */
function openChannel(): BroadcastChannel | null {
  try { return typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(SAVES_CHANNEL); } catch { return null; }
}

function listen(): void {
  if (listening || senders.size === 0) return;
  const channel = openChannel();
  if (!channel) return;
  listening = channel;
  channel.onmessage = (e: MessageEvent<SavesMessage>) => {
    const m = e.data;
    if (m?.kind !== 'send' || askedHere.has(m.id)) return;
    const { id, userId } = m;
    const mine = Array.from(senders).filter(([, owner]) => owner === userId).map(([send]) => send);
    if (mine.length === 0) return;
    const answer = (a: SavesMessage) => { try { channel.postMessage(a); } catch { /* closed meanwhile */ } };
    answer({ kind: 'busy', id, tab: thisTab });
    void Promise.all(mine.map((send) => send().catch(() => false)))
      .then((all) => answer({ kind: 'done', id, tab: thisTab, sent: all.every(Boolean) }));
  };
}
function stopListening(): void { listening?.close(); listening = null; }
// An open channel can keep the page out of the back/forward cache: closed as the page is left, opened again if it is restored.
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', stopListening);
  window.addEventListener('pageshow', listen);
}

/**
 * While this page holds `send` (the draft store's flush for the wizard of account `userId`: resolves true once the
 * server has everything), answers another tab's log-out of that account by running it ('busy', then 'done' with the
 * result). Returns the call that stops answering for `send` (the store stopped); the channel closes when no sender is
 * left.
 */
export function answerOtherTabs(userId: number, send: () => Promise<boolean>): () => void {
  senders.set(send, userId);
  listen();
  return () => { senders.delete(send); if (senders.size === 0) stopListening(); };
}

/**
 * Asks the other tabs holding a wizard of account `userId` to send their waiting changes now; returns the wait, which
 * ends when `stillUnsent()` turns false (no unsent local draft copy left), when no tab is at work ANSWER_GRACE_MS
 * (300 ms) after the request or after the last busy tab finished (what is still unsent then, no open tab will send),
 * or after OTHER_TABS_WAIT_MS (2 s), whichever is first. Without a channel the wait ends at once.
 */
export function askOtherTabsToSend(userId: number, stillUnsent: () => boolean): () => Promise<void> {
  const channel = openChannel();
  if (!channel) return () => Promise.resolve();
  const id = Math.random().toString(36).slice(2);
  const working = new Set<string>();
  let finish!: () => void;
  const over = new Promise<void>((resolve) => { finish = resolve; });
  const check = () => { if (!stillUnsent()) finish(); };
  let quiet: ReturnType<typeof setTimeout> | undefined;
  const finishWhenQuiet = () => { clearTimeout(quiet); quiet = setTimeout(() => { if (working.size === 0) finish(); }, ANSWER_GRACE_MS); };
  channel.onmessage = (e: MessageEvent<SavesMessage>) => {
    const m = e.data;
    if (!m || m.id !== id || m.kind === 'send') return;
    if (m.kind === 'busy') { working.add(m.tab); clearTimeout(quiet); }
    else { working.delete(m.tab); check(); if (working.size === 0) finishWhenQuiet(); }
  };
  // A tab's save that reached the server rewrites its copy as acknowledged: seen here as a storage event.
  addEventListener('storage', check);
  const timer = setTimeout(finish, OTHER_TABS_WAIT_MS);
  void over.then(() => { clearTimeout(timer); clearTimeout(quiet); removeEventListener('storage', check); channel.close(); askedHere.delete(id); });
  askedHere.add(id);
  channel.postMessage({ kind: 'send', id, userId } satisfies SavesMessage);
  finishWhenQuiet();
  return () => { check(); return over; };
}
