/**
 * A sign-in form posted without its JavaScript (audit of cheap phones, November 2026: Opera Mini, data savers, a
 * chunk lost on the way) answered Express's raw 404 'Cannot POST /login'. serve.ts now sends it back to its page.
 */
import { describe, expect, it } from 'vitest';
import express from 'express';
import supertest from 'supertest';
import { FORM_PAGES, siteMiddleware } from './serve.ts';
import { classify } from '../security/policy.ts';

const app = () => express().use(siteMiddleware({ dir: () => null }));

describe('a sign-in form posted to its own page', () => {
  it('answers 303 to the same page and query with nojs=1, and never echoes the body', async () => {
    const res = await supertest(app()).post('/login?redirect=%2Fapply%2F1').type('form').send({ email: 'thandi@example.com', password: 'Secret-pass-1' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/login?redirect=%2Fapply%2F1&nojs=1');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(JSON.stringify(res.headers) + res.text).not.toContain('Secret-pass-1');
  });

  it('covers /r, the reset-password page of the walk-in set-password SMS, whose form posts to /r', async () => {
    const res = await supertest(app()).post('/r').type('form').send({ password: 'Secret-pass-1', confirmPassword: 'Secret-pass-1' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/r?nojs=1');
    expect(classify({ method: 'POST', path: '/r' })?.access).toBe('public');
  });

  it('covers every sign-in page, with or without a trailing slash, and only those', async () => {
    for (const p of FORM_PAGES) {
      for (const url of [p, `${p}/`]) {
        const res = await supertest(app()).post(url).type('form').send('password=x');
        expect(res.status, url).toBe(303);
        expect(res.headers.location, url).toBe(`${p}?nojs=1`);
      }
      expect(classify({ method: 'POST', path: p })?.access, p).toBe('public');
    }
    expect((await supertest(app()).post('/about').type('form').send('a=1')).status).toBe(404);
    expect((await supertest(app()).post('//evil.example/login').type('form').send('a=1')).headers.location ?? '').not.toContain('evil');
  });
});
