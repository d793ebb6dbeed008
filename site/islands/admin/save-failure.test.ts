/**
 * saveFailureToast (save-failure.ts; QA audit 2026-11-28 item 1): a course or announcement save that did not reach a
 * working server says NOT_REACHED and stays until closed; the server's own refusals keep their message and 5 s toast.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, RequestTimeoutError } from '../../lib/api-client.ts';
import { NOT_REACHED, notReached, saveFailureToast } from './save-failure.ts';

const json = (status: number, message: string, fields?: Record<string, string>) => new ApiError(status, JSON.stringify({ error: { code: 'x', message, ...(fields ? { fields } : {}) } }));
const page = (status: number) => new ApiError(status, `<html><body><h1>${status}</h1></body></html>`);

describe('saveFailureToast', () => {
  it('no answer, or a 502/503/504, or a 5xx page without the API\'s message: NOT_REACHED, kept until closed, under the caller\'s title', () => {
    for (const e of [new NetworkError(new TypeError('Failed to fetch')), new RequestTimeoutError(), page(502), json(503, 'Service temporarily unavailable. Please try again shortly.'), page(503), page(504), page(500)]) {
      expect(notReached(e), String(e)).toBe(true);
      expect(saveFailureToast('Failed to update course', e, 'An error occurred'), String(e)).toEqual({ title: 'Failed to update course', description: NOT_REACHED, variant: 'destructive', persist: true });
    }
  });
  it('a 500 or 507 with the API\'s message: that message, kept until closed', () => {
    expect(saveFailureToast('Error creating announcement', json(507, 'The server is out of storage space. Please try again later.'), 'An unexpected error occurred'))
      .toEqual({ title: 'Error creating announcement', description: 'The server is out of storage space. Please try again later.', variant: 'destructive', persist: true });
    expect(saveFailureToast('Error creating announcement', json(500, 'Something went wrong. Please try again.'), 'x').persist).toBe(true);
  });
  it('a 400 with field messages, a 403, 404 or 409: the server\'s message, gone after the usual 5 s (no persist), as before', () => {
    for (const e of [json(400, 'Please check the highlighted fields', { duration: 'Duration must be a positive number' }), json(403, 'Forbidden'), json(404, 'Course Not Found'), json(409, 'Someone else changed this course since you opened it. Reload to see their changes.')]) {
      expect(notReached(e)).toBe(false);
      expect(saveFailureToast('Failed to update course', e, 'An error occurred')).toEqual({ title: 'Failed to update course', description: e.userMessage, variant: 'destructive' });
    }
  });
  it('anything that is not an answer of the API (a bug, a bad JSON body): the caller\'s spec §8 text, no persist', () => {
    for (const e of [new SyntaxError('Unexpected token'), new Error('boom'), 'x']) {
      expect(notReached(e)).toBe(false);
      expect(saveFailureToast('Error deleting announcement', e, 'An unexpected error occurred')).toEqual({ title: 'Error deleting announcement', description: 'An unexpected error occurred', variant: 'destructive' });
    }
  });
});
