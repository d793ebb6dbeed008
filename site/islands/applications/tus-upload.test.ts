/**
 * tus-upload.ts when the login has ended (401) and the person cancels "Your session has ended" (phone audit
 * 2026-11-28): the chosen file stays kept for resume (no dropPending) and the upload fails with SignInNeededError,
 * whose message says what to do, never the server's 'Authentication required'. Logged in again, it carries on.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const state = vi.hoisted(() => ({ loggedIn: false, starts: 0, dropped: [] as string[], saved: [] as string[] }));

vi.mock('../ui/SignInAgain.tsx', () => ({ signInAgain: async () => state.loggedIn }));
vi.mock('../../lib/pending-uploads.ts', () => ({
  savePending: async (key: string) => { state.saved.push(key); },
  dropPending: async (key: string) => { state.dropped.push(key); },
}));
/** A tus Upload whose first start answers 401 (the JSON error the API sends) and whose next start succeeds. */
vi.mock('tus-js-client', () => ({
  Upload: class {
    options: any; url = '/api/uploads/tus/u1';
    constructor(_file: unknown, options: any) { this.options = options; }
    findPreviousUploads() { return Promise.resolve([]); }
    resumeFromPreviousUpload() { /* none */ }
    abort() { return Promise.resolve(); }
    start() {
      state.starts++;
      if (state.starts === 1) {
        const body = JSON.stringify({ error: { code: 'unauthorized', message: 'Authentication required' } });
        void this.options.onError(Object.assign(new Error('tus: unexpected response'), { originalResponse: { getStatus: () => 401, getBody: () => body } }));
      } else {
        this.options.onAfterResponse(null, { getBody: () => JSON.stringify({ upload: { id: 'u1', name: 'id.pdf', size: 3 } }) });
        this.options.onSuccess();
      }
    }
  },
}));

import { resumableUpload, SignInNeededError, SIGNED_OUT_MESSAGE } from './tus-upload.ts';

beforeEach(() => {
  Object.assign(state, { loggedIn: false, starts: 0, dropped: [], saved: [] });
  vi.stubGlobal('window', { addEventListener: () => {}, removeEventListener: () => {} });
  vi.stubGlobal('localStorage', { getItem: () => null });
});
afterEach(() => { vi.unstubAllGlobals(); });

const file = { name: 'id.pdf', type: 'application/pdf', size: 3, lastModified: 0 } as unknown as File;

describe('resumableUpload when the login has ended', () => {
  it('cancelled: rejects with SignInNeededError saying what to do, and keeps the file for resume', async () => {
    const err = await resumableUpload(file, '7:/apply/2:idDocument', () => {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SignInNeededError);
    expect((err as Error).message).toBe(SIGNED_OUT_MESSAGE);
    expect(SIGNED_OUT_MESSAGE).toBe('Not uploaded yet: log in again to send this file.');
    expect(state.saved).toEqual(['7:/apply/2:idDocument']);
    expect(state.dropped).toEqual([]);
  });

  it('logged in again: carries on and resolves with the upload, and forgets the kept file', async () => {
    state.loggedIn = true;
    const up = await resumableUpload(file, '7:/apply/2:idDocument', () => {});
    expect(up).toEqual({ id: 'u1', name: 'id.pdf', size: 3 });
    expect(state.starts).toBe(2);
    expect(state.dropped).toEqual(['7:/apply/2:idDocument']);
  });
});
