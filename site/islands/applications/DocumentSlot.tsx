/**
 * One document slot of spec §3 (ID Document, Qualifications Documents, Matric Statements, CV or Resume):
 * "Take a photo" (camera, several pages) or "Choose a file" → resumable upload (tus, issue #16) with a progress
 * bar that survives a dropped connection and a page reload → shows the file with Replace and Remove (Remove asks
 * first). Photos show as thumbnails to rotate or remove, then become one compressed JPEG or one PDF
 * (photo-pages.ts). A chosen photo over 300 KB is compressed too. A non-image file over 5 MB shows the spec's
 * alert 'File size exceeds 5MB limit' in the slot (role=alert, no browser pop-up) and is not sent. Under a refusal a
 * second line says what to do (usability audit, November 2026): the file's size in MB and to take photos instead, or
 * for a HEIC photo the camera setting; a photo that is not a JPEG or PNG is refused with a message, not dropped.
 * While a photo is prepared the slot shows and announces "Preparing your photo…" and its buttons stay focusable
 * (aria-disabled); a photo that cannot be read says what to do (accessibility audit, November 2026).
 * A file chosen after the login ended, whose "Your session has ended" was cancelled (phone audit 2026-11-28), is
 * kept: the slot names it with 'Not uploaded yet: log in again to send this file.' and a "Log in again" button, and
 * sends it once the same account has logged in again — from that button, or from any other log-in dialog on the page
 * (a new bearer token and GET /api/auth/me naming the page's user, as the wizard's draft store checks); a reload once
 * logged in sends it too (the file stays in IndexedDB, lib/pending-uploads.ts).
 */
import { formatBytes } from '../../lib/format.ts';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ACCEPT, precheck, uploadFile, uploadHelp } from './upload.ts';
import { resumableUpload, SignInNeededError, SIGNED_OUT_MESSAGE } from './tus-upload.ts';
import { pendingFile, pendingUploadKey } from '../../lib/pending-uploads.ts';
import { $session } from '../../stores/session.ts';
import { apiOrNull, READ_TIMEOUT_MS, storedToken } from '../../lib/api-client.ts';
import { askToSignInAgain } from '../ui/save-api.ts';
import { isImage, PAGE_MAX_BYTES, pagesToFile, PhotoReadError, photoFormat, unreadablePhotoMessage, type PhotoPage } from './photo-pages.ts';
import type { UploadView } from '#contracts/application-views.ts';
import { DOCUMENT_SLOTS } from '#contracts/application-steps.ts';

export interface SlotFile { id: string; name: string; size: number }

interface Props {
  slot: string; label: string; required: boolean;
  value: SlotFile | null;
  error?: string;
  /** A plain upload endpoint instead of the resumable /api/uploads/tus (walk-in applications entered by an admin). */
  uploadUrl?: string;
  onChange: (file: SlotFile | null) => void;
  /** Called with the previous upload id when a file is removed or replaced (the caller may delete it). */
  onDiscard?: (id: string) => void;
  /** Shown under the label, e.g. why a rejected document is asked for again. */
  note?: ReactNode;
  /** Hears an upload start (true) and end (false: done, failed or the slot gone). */
  onUploading?: (uploading: boolean) => void;
}

export function DocumentSlot({ slot, label, required, value, error, onChange, onDiscard, uploadUrl, note, onUploading }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  // The second line under localError: what to do about it.
  const [help, setHelp] = useState<string | null>(null);
  const fail = (message: string | null, next: string | null = null) => { setLocalError(message); setHelp(next); };
  const [confirming, setConfirming] = useState(false);
  const [photos, setPhotos] = useState<PhotoPage[]>([]);
  const [preparing, setPreparing] = useState(false);
  // The handlers' guard while a photo is compressed: the buttons stay focusable (aria-disabled, not disabled, as in
  // ApplicationReview.tsx — a disabled button drops the focus to the page; accessibility audit, November 2026).
  const preparingNow = useRef(false);
  const camera = useRef<HTMLInputElement>(null);
  const cameraButton = useRef<HTMLButtonElement>(null);
  // Focus (WCAG 2.4.3): the buttons the focus was on go away during an upload and when a file is removed; it moves
  // to the progress, then to the file's Replace, or to Choose a file — unless the applicant has moved on elsewhere.
  const box = useRef<HTMLDivElement>(null);
  const choose = useRef<HTMLButtonElement>(null);
  const replace = useRef<HTMLButtonElement>(null);
  const removeButton = useRef<HTMLButtonElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  const progressBox = useRef<HTMLDivElement>(null);
  const logIn = useRef<HTMLButtonElement>(null);
  const focusNext = useRef<'progress' | 'file' | 'choose' | 'camera' | 'remove' | 'keep' | 'login' | null>(null);
  const [, rerender] = useState(0);
  const moveFocus = (to: NonNullable<typeof focusNext.current>) => { focusNext.current = to; rerender((n) => n + 1); };
  const focusIsHere = () => { const a = document.activeElement; return !a || a === document.body || Boolean(box.current?.contains(a)); };
  useEffect(() => {
    const to = focusNext.current;
    if (!to) return;
    const el = { progress: progressBox, file: replace, choose, camera: cameraButton, remove: removeButton, keep, login: logIn }[to].current;
    if (el) { focusNext.current = null; el.focus(); }
  });
  // Spoken when an upload starts and when it is done, and kept; the percentages are not (the progress bar has them,
  // for anyone who asks); a failure is the error's alert.
  const [announced, setAnnounced] = useState('');
  const id = `f-documents-${slot}`;
  const shown = localError ?? error;
  const pendingKey = pendingUploadKey($session.get().user?.id ?? 0, typeof location === 'undefined' ? '' : location.pathname, slot);

  // A reload in the middle of an upload: carry on with the file this user left in IndexedDB.
  useEffect(() => {
    if (value || uploadUrl || !$session.get().user) return;
    void pendingFile(pendingKey).then((f) => { if (f) void send(f); });
  }, []);
  useEffect(() => () => photos.forEach((p) => URL.revokeObjectURL(p.preview)), []);
  const uploadingTo = useRef(onUploading);
  uploadingTo.current = onUploading;
  useEffect(() => { uploadingTo.current?.(progress !== null); }, [progress !== null]);
  useEffect(() => () => uploadingTo.current?.(false), []);
  // The file waiting for a log-in (SignInNeededError), with the bearer token there was when it stopped: only a log-in
  // stores a new one (stores/session.ts requestLogin), so a session update that is no log-in sends nothing.
  const [waiting, setWaiting] = useState<File | null>(null);
  const held = useRef<{ file: File; token: string | null; userId: number } | null>(null);
  const sendNow = useRef(send);
  sendNow.current = send;
  const resume = () => { const h = held.current; if (!h) return; held.current = null; void sendNow.current(h.file); };
  useEffect(() => $session.listen((s) => {
    const h = held.current;
    const token = storedToken();
    if (!h || s.user?.id !== h.userId || token === h.token) return;
    // A new token may be another person's (a log-in in another tab): the server must say the session is this user's.
    void apiOrNull<{ user: { id: number } }>('/api/auth/me', { timeoutMs: READ_TIMEOUT_MS })
      .then((r) => { if (r?.user.id === h.userId && held.current === h && storedToken() === token) resume(); }, () => {});
  }), []);
  const logInAgain = () => { void askToSignInAgain().then((ok) => { if (ok) resume(); }, () => {}); };

  async function send(file: File) {
    fail(null);
    held.current = null;
    setWaiting(null);
    setProgress(0);
    setAnnounced(`Uploading ${file.name}…`);
    if (focusIsHere()) moveFocus('progress');
    try {
      // An admin uploading for a walk-in applicant posts to their endpoint in one request; applicants resume (tus).
      const up: UploadView = uploadUrl ? await uploadFile(file, setProgress, undefined, uploadUrl) : await resumableUpload(file, pendingKey, setProgress);
      const previous = value?.id;
      onChange({ id: up.id, name: up.name, size: up.size });
      if (previous && onDiscard) onDiscard(previous);
      setAnnounced(`${up.name} uploaded`);
      if (focusIsHere()) moveFocus('file');
    } catch (e) {
      if (e instanceof SignInNeededError) {
        held.current = { file, token: storedToken(), userId: $session.get().user?.id ?? 0 };
        setWaiting(file);
        setAnnounced('');
        if (focusIsHere()) moveFocus('login');
        return;
      }
      fail(e instanceof Error ? e.message : 'Upload failed');
      if (focusIsHere()) moveFocus(value ? 'file' : 'choose');
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  }

  async function addPhotos(list: FileList | null) {
    const all = [...(list ?? [])];
    if (camera.current) camera.current.value = '';
    const added = all.filter(isImage).map((file) => ({ file, turns: 0, preview: URL.createObjectURL(file) }));
    setPhotos((p) => [...p, ...added]);
    const dropped = all.find((f) => !isImage(f));
    fail(dropped ? unreadablePhotoMessage(await photoFormat(dropped)) : null);
  }

  /**
   * Compresses `pages` (the camera's, or one large chosen photo: `fromCamera` false) and uploads the result. While it
   * works the slot says so, visibly and in its live region. A photo that cannot be read is taken out of the list, with
   * what to do next, and the focus goes to the button that does it (Take a photo, or Choose a file).
   */
  async function usePhotos(pages = photos, fromCamera = true) {
    if (preparingNow.current) return;
    preparingNow.current = true;
    setPreparing(true); fail(null);
    setAnnounced(pages.length > 1 ? `Preparing your ${pages.length} pages…` : 'Preparing your photo…');
    try {
      // One chosen photo keeps its own name ('IMG_0412.jpg'), so the applicant knows it again (phone audit). Camera
      // pages are named after the slot's own label ('id-document.jpg'), not the one on screen, which may say more
      // ('New …', '(currently …)').
      const own = DOCUMENT_SLOTS.find((s) => s.key === slot.replace(/^replace-/, ''))?.label ?? label;
      const chosen = !fromCamera && pages.length === 1 ? pages[0].file.name.replace(/\.[^.]*$/, '') : '';
      const file = await pagesToFile(pages, chosen || own.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').toLowerCase() || 'document');
      pages.forEach((p) => URL.revokeObjectURL(p.preview));
      setPhotos([]);
      preparingNow.current = false;
      setPreparing(false);
      await send(file);
    } catch (e) {
      preparingNow.current = false;
      setPreparing(false);
      setAnnounced('');
      // The page that failed (PhotoReadError) leaves the list; the others stay to be used with a new photo.
      const bad = e instanceof PhotoReadError ? e.page : -1;
      if (fromCamera && bad >= 0) {
        URL.revokeObjectURL(pages[bad].preview);
        setPhotos((all) => all.filter((p) => p !== pages[bad]));
      }
      const which = fromCamera && pages.length > 1 && bad >= 0 ? `Page ${bad + 1} could not be read, so we took it out.` : 'This photo could not be read.';
      fail(which, 'Take the photo again, or choose a JPG, PNG or PDF file.');
      if (focusIsHere()) moveFocus(fromCamera ? 'camera' : 'choose');
    }
  }

  async function pick(file: File | undefined) {
    if (!file) return;
    // A file chosen while a photo is still being prepared (Replace pressed twice, review 2026-11-27) would upload beside
    // the photo and leave one of them orphaned: the photo being prepared wins, the later choice is dropped.
    if (preparingNow.current) { if (input.current) input.current.value = ''; return; }
    // A large photo is compressed rather than refused (a 12-megapixel phone photo is often over 5 MB).
    if (isImage(file) && file.size > PAGE_MAX_BYTES) { await usePhotos([{ file, turns: 0, preview: '' }], false); if (input.current) input.current.value = ''; return; }
    const problem = precheck(file);
    if (problem) {
      if (input.current) input.current.value = '';
      fail(problem, uploadHelp(file, problem, (await photoFormat(file)) === 'HEIC'));
      return;
    }
    await send(file);
  }

  return (
    <div ref={box} className="rounded-md border border-slate-200 p-4 dark:border-slate-700" data-slot={slot}>
      <label htmlFor={id} className="label">{label}{required ? ' (required)' : ' (optional)'}</label>
      {note}
      <p id={`${id}-hint`} className="text-xs muted">PDF, DOC, DOCX, JPG, JPEG or PNG, up to 5MB. Photos are made smaller for you.</p>
      {/* Buttons are at least 44 px tall below 640 px (WCAG 2.5.5, usability audit at 360 px); wider, as before. */}
      {!value && progress === null && (
        <div className="mt-2 flex flex-wrap gap-2">
          <input ref={camera} id={`${id}-camera`} type="file" accept="image/*" capture="environment" className="sr-only" tabIndex={-1} aria-hidden="true"
            onChange={(e) => void addPhotos(e.target.files)} />
          <button ref={cameraButton} type="button" className="btn-secondary px-3 py-1 max-sm:min-h-11 aria-disabled:cursor-not-allowed aria-disabled:opacity-60" aria-disabled={preparing || undefined} onClick={() => { if (!preparingNow.current) camera.current?.click(); }}>{photos.length ? 'Take another page' : 'Take a photo'}<span className="sr-only"> for {label}</span></button>
          <button ref={choose} type="button" className="btn-secondary px-3 py-1 max-sm:min-h-11 aria-disabled:cursor-not-allowed aria-disabled:opacity-60" aria-disabled={preparing || undefined} aria-describedby={shown ? `${id}-error` : undefined} onClick={() => { if (!preparingNow.current) input.current?.click(); }}>Choose a file<span className="sr-only"> for {label}</span></button>
        </div>
      )}
      {photos.length > 0 && progress === null && (
        <div className="mt-2" data-testid={`photos-${slot}`}>
          <ul className="flex flex-wrap gap-2" aria-label={`Photos for ${label}`}>
            {photos.map((p, i) => (
              <li key={p.preview} className="flex flex-col items-center gap-1 text-xs">
                <img src={p.preview} alt={`Page ${i + 1}`} className="h-20 w-16 rounded border object-cover" style={{ transform: `rotate(${p.turns * 90}deg)` }} />
                <span className="flex gap-2">
                  {/* 44 × 44 px targets, 8 px apart (WCAG 2.5.8). */}
                  <button type="button" className="btn-secondary h-11 w-11 p-0" aria-label={`Rotate page ${i + 1}`} onClick={() => setPhotos((all) => all.map((x, j) => (j === i ? { ...x, turns: (x.turns + 1) % 4 } : x)))}>↻</button>
                  <button type="button" className="btn-secondary h-11 w-11 p-0" aria-label={`Remove page ${i + 1}`} onClick={() => {
                    if (!window.confirm(`Remove page ${i + 1}?`)) return;
                    URL.revokeObjectURL(p.preview);
                    setPhotos((all) => all.filter((_, j) => j !== i));
                  }}>✕</button>
                </span>
              </li>
            ))}
          </ul>
          <button type="button" className="btn-primary mt-2 px-3 py-1 max-sm:min-h-11 aria-disabled:cursor-not-allowed aria-disabled:opacity-60" aria-disabled={preparing || undefined} onClick={() => void usePhotos()}>
            {preparing ? 'Preparing…' : photos.length === 1 ? 'Use this photo' : `Use these ${photos.length} pages (one PDF)`}
          </button>
        </div>
      )}
      {/* Not a tab stop (the buttons open it); focused to show an error, it hands the focus to the visible button. */}
      <input ref={input} id={id} type="file" accept={ACCEPT} className="sr-only"
        tabIndex={-1} onFocus={() => (value ? replace : choose).current?.focus()} aria-invalid={shown ? true : undefined} aria-describedby={`${id}-hint${shown ? ` ${id}-error` : ''}`}
        disabled={progress !== null} onChange={(e) => void pick(e.target.files?.[0])} />
      {progress !== null && (
        <div ref={progressBox} tabIndex={-1} className="mt-2" data-upload-progress aria-describedby={shown ? `${id}-error` : undefined}>
          <div role="progressbar" aria-label={`Uploading ${label}`} aria-valuenow={progress} aria-valuemin={0} aria-valuemax={100} className="h-2 w-full overflow-hidden rounded-full border border-slate-200 bg-slate-200 dark:border-slate-700 dark:bg-slate-700">
            <div className="h-full bg-brand-600 transition-[width] forced-colors:bg-[Highlight]" style={{ width: `${progress}%` }} />
          </div>
          {/* Not a live region: every percentage was spoken. The start, the end and a failure are (below, and the alert). */}
          <p className="mt-1 text-xs muted">Uploading… {progress}%{typeof navigator !== 'undefined' && !navigator.onLine ? ' — waiting for a connection, it will continue by itself' : ''}</p>
        </div>
      )}
      {value && progress === null && (
        <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
          <span className="font-medium" data-testid={`file-${slot}`}>{value.name}</span>
          <span className="muted">({formatBytes(value.size)})</span>
          {confirming ? (
            <span className="flex items-center gap-2" role="group" aria-label={`Remove ${value.name}?`}>
              <span>Remove this file?</span>
              <button type="button" className="btn-danger px-2 py-1 max-sm:min-h-11" onClick={() => { const old = value.id; setConfirming(false); setAnnounced(`${value.name} removed`); onChange(null); onDiscard?.(old); moveFocus('choose'); }}>Yes, remove</button>
              <button ref={keep} type="button" className="btn-secondary px-2 py-1 max-sm:min-h-11" onClick={() => { setConfirming(false); moveFocus('remove'); }}>Cancel</button>
            </span>
          ) : (
            <>
              <button ref={replace} type="button" className="btn-secondary px-2 py-1 max-sm:min-h-11 aria-disabled:cursor-not-allowed aria-disabled:opacity-60" aria-disabled={preparing || undefined} onClick={() => { if (!preparingNow.current) input.current?.click(); }} aria-label={`Replace ${label}`}>Replace</button>
              <button ref={removeButton} type="button" className="btn-secondary px-2 py-1 max-sm:min-h-11" onClick={() => { setConfirming(true); moveFocus('keep'); }} aria-label={`Remove ${label}`}>Remove</button>
            </>
          )}
        </div>
      )}
      {waiting && progress === null && (
        <div className="mt-2 text-sm">
          <p role="alert"><span className="font-medium">{waiting.name}</span>: <span data-testid={`waiting-${slot}`}>{SIGNED_OUT_MESSAGE}</span></p>
          <button ref={logIn} type="button" className="btn-secondary mt-1 px-2 py-1 max-sm:min-h-11" onClick={logInAgain}>Log in again<span className="sr-only"> to send {waiting.name}</span></button>
        </div>
      )}
      {/* An upload that failed is announced; a required-slot message is not (the focus comes to the slot, WCAG 4.1.3). */}
      {shown && (
        <div role={localError ? 'alert' : undefined}>
          <p id={`${id}-error`} className="field-error">{shown}</p>
          {localError && help && <p className="text-sm">{help}</p>}
        </div>
      )}
      {/* Shown too while a photo is prepared (1-2 s on a phone, and no other sign of it when a file was chosen). */}
      <p role="status" className={preparing ? 'mt-2 text-sm' : 'sr-only'} data-testid={`uploaded-${slot}`}>{announced}</p>
    </div>
  );
}
