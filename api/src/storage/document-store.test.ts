import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createDocumentStore, streamToBuffer, type DocumentStore } from './document-store.ts';
import { startS3Server, type TestS3Server } from '../test/s3-server.ts';

describe.each(['local', 's3'] as const)('document store (%s driver)', (driver) => {
  let store: DocumentStore;
  let s3: TestS3Server | undefined;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'college-store-test-'));
    if (driver === 's3') s3 = await startS3Server({ bucket: 'store-contract' });
    store = await createDocumentStore(loadConfig({ DATA_DIR: dataDir, ...s3?.env } as any));
    await store.init();
  });
  afterAll(async () => { await s3?.close(); fs.rmSync(dataDir, { recursive: true, force: true }); });

  it('keeps bytes put as a buffer and as a stream, with their size, until deleted', async () => {
    expect(store.kind).toBe(driver);
    const a = Buffer.from('%PDF-1.4 first document');
    const b = Buffer.alloc(300_000, 7);
    await store.put('a.pdf', a, { contentType: 'application/pdf' });
    await store.put('nested/b.bin', Readable.from([b.subarray(0, 1000), b.subarray(1000)]));
    const got = await store.get('a.pdf');
    expect(got?.size).toBe(a.length);
    expect(Buffer.compare(await streamToBuffer(got!.stream), a)).toBe(0);
    const big = await store.get('nested/b.bin');
    expect(big?.size).toBe(b.length);
    expect(Buffer.compare(await streamToBuffer(big!.stream), b)).toBe(0);
    expect(await store.exists('a.pdf')).toBe(true);
    expect(await store.list()).toEqual(['a.pdf', 'nested/b.bin']);
    expect(await store.list('nested/')).toEqual(['nested/b.bin']);

    await store.delete('a.pdf');
    await store.delete('a.pdf');
    expect(await store.exists('a.pdf')).toBe(false);
    expect(await store.get('a.pdf')).toBeUndefined();
    expect(await store.list()).toEqual(['nested/b.bin']);
  });

  it('refuses keys that could leave the store: .., absolute, empty, odd characters', async () => {
    for (const key of ['../etc/passwd', '/etc/passwd', '', 'a/../../b', 'a b.pdf', 'a\\b', '.hidden']) {
      await expect(store.put(key, Buffer.from('x')), key).rejects.toThrow(TypeError);
      await expect(store.get(key), key).rejects.toThrow(TypeError);
    }
    expect(fs.existsSync(path.join(dataDir, 'etc'))).toBe(false);
  });
});

describe('document store configuration', () => {
  it('chooses S3 when S3_BUCKET is set and asks for the bucket when DOCUMENT_STORE=s3 has none', () => {
    expect(loadConfig({} as any).DOCUMENT_STORE).toBe('local');
    expect(loadConfig({ S3_BUCKET: 'docs' } as any).DOCUMENT_STORE).toBe('s3');
    expect(() => loadConfig({ DOCUMENT_STORE: 's3' } as any)).toThrow(/S3_BUCKET must be set/);
    expect(() => loadConfig({ S3_BUCKET: 'docs', S3_ACCESS_KEY_ID: 'x' } as any)).toThrow(/S3_SECRET_ACCESS_KEY/);
    expect(loadConfig({ S3_BUCKET: 'docs', S3_FORCE_PATH_STYLE: 'true' } as any).S3_FORCE_PATH_STYLE).toBe(true);
    expect(loadConfig({ S3_BUCKET: 'docs' } as any).S3_FORCE_PATH_STYLE).toBe(false);
  });

  it('an S3 store whose service is unreachable fails init() with a message naming the bucket', async () => {
    const store = await createDocumentStore(loadConfig({ S3_BUCKET: 'docs', S3_ENDPOINT: 'http://127.0.0.1:9', S3_FORCE_PATH_STYLE: 'true', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' } as any));
    await expect(store.init()).rejects.toThrow(/Cannot reach the S3 bucket "docs"/);
  });

  it('init() creates a missing bucket on a fresh S3 service', async () => {
    const s3 = await startS3Server({ bucket: 'other' });
    try {
      const store = await createDocumentStore(loadConfig({ ...s3.env, S3_BUCKET: 'fresh-bucket' } as any));
      await store.init();
      await store.put('x.pdf', Buffer.from('x'));
      expect(await store.exists('x.pdf')).toBe(true);
    } finally { await s3.close(); }
  });
});
