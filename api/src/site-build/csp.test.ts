import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import express from 'express';
import supertest from 'supertest';
import { inlineScriptHashes, writeCspManifest } from './csp.ts';
import { siteMiddleware } from './serve.ts';

const sha = (s: string) => `'sha256-${crypto.createHash('sha256').update(s).digest('base64')}'`;

describe('site CSP (ASVS 3.4.3)', () => {
  it('hashes inline classic and module scripts, never external scripts or JSON-LD data blocks', () => {
    const html = `<script>a()</script><script type="module">b()</script><script src="/x.js"></script><script type="application/ld+json">{"@type":"Course"}</script>`;
    expect(inlineScriptHashes(html).sort()).toEqual([sha('a()'), sha('b()')].sort());
  });

  it('each page is served with a script-src allowing exactly its own inline scripts, and no unsafe-inline', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csp-'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><script>theme()</script><p>home</p>');
    fs.mkdirSync(path.join(dir, 'about'));
    fs.writeFileSync(path.join(dir, 'about', 'index.html'), '<!doctype html><script>about()</script>');
    fs.writeFileSync(path.join(dir, '404.html'), '<!doctype html><h1>Page Not Found</h1>');
    writeCspManifest(dir);
    const app = express().use(siteMiddleware({ dir: () => dir }));
    const home = await supertest(app).get('/');
    const csp = String(home.headers['content-security-policy']);
    expect(csp).toContain(sha('theme()'));
    expect(csp).not.toContain(sha('about()'));
    expect(csp).toMatch(/script-src 'self' 'sha256-/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(String((await supertest(app).get('/about')).headers['content-security-policy'])).toContain(sha('about()'));
    const missing = await supertest(app).get('/nope');
    expect(missing.status).toBe(404);
    expect(String(missing.headers['content-security-policy'])).toMatch(/script-src 'self'(;|$)/);
  });
});
