/**
 * Upload abuse (ASVS 5.2.x, 5.3.x, 5.4.1) and stored XSS (ASVS 1.2.x / 3.2.2): hostile files are refused
 * by their bytes, names cannot climb out of the uploads directory, downloads are attachments; hostile
 * announcement/application text is stored and returned verbatim as JSON, and the site's templates have no
 * raw-HTML sink that could render it as markup.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, DB_KIND, type TestApp } from '../test/harness.ts';
import { makeAdmin, makeStudent, submitAs, type Actor } from './actors.ts';

const DATA_DIR = `/tmp/eng-f-uploads-${process.pid}`;
let t: TestApp;
let s: Actor;
let admin: Actor;
beforeAll(async () => {
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  t = await startTestApp({ DATA_DIR });
  [s, admin] = [await makeStudent(t), await makeAdmin(t)];
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
const HTML_PDF_POLYGLOT = Buffer.from('<html><body><script>alert(document.cookie)</script>\n%PDF-1.4\n1 0 obj<<>>endobj\n%%EOF</body></html>');
const SVG = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>');
const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff', 'latin1'), Buffer.alloc(64), Buffer.from('PE\0\0', 'latin1'), Buffer.alloc(256)]);
const XSS = `<script>alert("x")</script><img src=x onerror=alert(1)>`;

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => path.join(d.parentPath, d.name));
}

describe(`security: uploads (${DB_KIND})`, () => {
  it('V5.2.2 uploads › an HTML/PDF polyglot, an SVG with script and a renamed executable are refused 415 and not stored', async () => {
    const before = filesUnder(DATA_DIR).length;
    for (const [buf, name] of [[HTML_PDF_POLYGLOT, 'cv.pdf'], [SVG, 'photo.png'], [SVG, 'photo.svg'], [EXE, 'transcript.pdf'], [EXE, 'id.docx']] as const) {
      const res = await s.agent.post('/api/uploads').attach('file', buf, name);
      expect(res.status, name).toBe(415);
      expect(res.body.error.code, name).toBeTypeOf('string');
    }
    expect(filesUnder(DATA_DIR).length).toBe(before);
  });

  it('V5.2.1 uploads › a file over 5 MB is refused 413', async () => {
    const big = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024 + 10, 0x20)]);
    const res = await s.agent.post('/api/uploads').attach('file', big, 'big.pdf');
    expect(res.status).toBe(413);
  });

  it('V5.3.2 uploads › a ../ name never becomes a path: refused, or stored under a random name inside the uploads directory', async () => {
    for (const name of ['../../../../tmp/eng-f-escape.pdf', '..\\..\\evil.pdf', '....//x.pdf']) {
      const res = await s.agent.post('/api/uploads').attach('file', PDF, name);
      expect([201, 400], name).toContain(res.status);
      if (res.status === 201) {
        expect(res.body.upload.name, name).not.toMatch(/[\\/]|\.\./);
      }
    }
    expect(fs.existsSync('/tmp/eng-f-escape.pdf')).toBe(false);
    for (const f of filesUnder(DATA_DIR)) expect(path.resolve(f).startsWith(path.resolve(DATA_DIR))).toBe(true);
  });

  it('V5.4.1 uploads › downloads carry Content-Disposition: attachment, the stored type and nosniff', async () => {
    const up = await s.agent.post('/api/uploads').attach('file', PDF, 'report "final".pdf');
    expect(up.status).toBe(201);
    for (const who of [s, admin]) {
      const res = await who.agent.get(`/api/uploads/${up.body.upload.id}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment;/);
      expect(res.headers['content-type']).toMatch(/^application\/pdf/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});

describe(`security: XSS (${DB_KIND})`, () => {
  it('V3.2.2 XSS › an announcement with <script> and onerror= is stored and served verbatim as JSON, never as HTML', async () => {
    const res = await admin.agent.post('/api/announcements').send({ title: `News ${XSS}`, content: `Body ${XSS} end.`, active: true });
    expect(res.status).toBe(201);
    const pub = await t.request().get('/api/announcements');
    expect(pub.headers['content-type']).toMatch(/^application\/json/);
    const found = pub.body.announcements.find((a: any) => a.title === `News ${XSS}`);
    expect(found?.content).toBe(`Body ${XSS} end.`);
  });

  it('V3.2.2 XSS › application text with <script> and onerror= is refused or kept verbatim, and admin lists return it as JSON', async () => {
    const res = await submitAs(t, s, 1, { addressLine1: `1 ${XSS}`.slice(0, 100), city: 'Thohoyandou' });
    expect([201, 400]).toContain(res.status);
    if (res.status === 201) {
      const list = await admin.agent.get('/api/admin/applications');
      expect(list.headers['content-type']).toMatch(/^application\/json/);
      const mine = await s.agent.get(`/api/applications/${res.body.application.id}`);
      expect(JSON.stringify(mine.body)).toContain(JSON.stringify(`1 ${XSS}`.slice(0, 100)).slice(1, -1));
    }
  });

  it('V3.2.2 XSS › site templates have no raw-HTML sink except JSON-LD with "<" escaped', () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../site');
    const sinks: string[] = [];
    for (const f of fs.readdirSync(root, { recursive: true }) as string[]) {
      if (!/\.(astro|tsx|ts|jsx|js)$/.test(f) || f.includes('node_modules')) continue;
      const text = fs.readFileSync(path.join(root, f), 'utf8');
      text.split('\n').forEach((line, i) => {
        if (/dangerouslySetInnerHTML|\.innerHTML\s*=(?!\s*(''|""|``)\s*;)|outerHTML\s*=|insertAdjacentHTML|document\.write\(/.test(line)) sinks.push(`${f}:${i + 1}: ${line.trim()}`);
        if (/set:html=/.test(line) && !/JSON\.stringify\([^)]*\)\.replace\(\/<\/g/.test(line)) sinks.push(`${f}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(sinks, 'Raw HTML sinks render stored text as markup; render text with {expressions} instead').toEqual([]);
  });
});
