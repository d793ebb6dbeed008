/** loadConfig as an operator meets it: what production requires, and the graceful-stop defaults. */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { ConfigError, loadConfig, resolveFromStartDir } from './config.ts';

const production = { NODE_ENV: 'production', SESSION_SECRET: 'production-secret-0123456789' };
/** Everything production requires: a sender on a domain that can pass SPF/DKIM/DMARC, and an https public address. */
const complete = { ...production, PUBLIC_URL: 'https://apply.vhembe.ac.za', MAIL_FROM: '"Vhembe Admissions" <admissions@vhembe.ac.za>' };

describe('loadConfig', () => {
  it('production requires PUBLIC_URL (e-mailed links would otherwise take whichever node answered), naming it', () => {
    expect(() => loadConfig(production)).toThrow(ConfigError);
    expect(() => loadConfig({ ...complete, PUBLIC_URL: undefined })).toThrow(/PUBLIC_URL must be set in production/);
    expect(loadConfig(complete).PUBLIC_URL).toBe('https://apply.vhembe.ac.za');
    expect(loadConfig({}).PUBLIC_URL).toBeUndefined();
  });

  it('production refuses an http PUBLIC_URL (links would be e-mailed as http), except on a loopback host (tests, a node behind its own proxy)', () => {
    expect(() => loadConfig({ ...complete, PUBLIC_URL: 'http://apply.vhembe.ac.za' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...complete, PUBLIC_URL: 'http://apply.vhembe.ac.za' })).toThrow(/PUBLIC_URL must be an https:\/\/ address in production/);
    for (const loopback of ['http://127.0.0.1:4321', 'http://localhost:8080', 'http://[::1]:4321']) {
      expect(loadConfig({ ...complete, PUBLIC_URL: loopback }).PUBLIC_URL, loopback).toBe(loopback);
    }
    expect(loadConfig({ PUBLIC_URL: 'http://apply.vhembe.ac.za' }).PUBLIC_URL).toBe('http://apply.vhembe.ac.za');
  });

  it('production requires MAIL_FROM on a domain that can pass SPF/DKIM/DMARC: not unset, not a reserved .example/.invalid/.test/.localhost name (RFC 2606, 6761)', () => {
    expect(() => loadConfig({ ...complete, MAIL_FROM: undefined })).toThrow(ConfigError);
    expect(() => loadConfig({ ...complete, MAIL_FROM: undefined })).toThrow(/^MAIL_FROM must be set in production/);
    expect(() => loadConfig({ ...complete, MAIL_FROM: '  ' })).toThrow(/^MAIL_FROM must be set in production/);
    for (const reserved of ['"Admissions" <admissions@college.example>', 'admissions@college.EXAMPLE', 'a@mail.invalid', 'a@college.test', 'a@localhost', 'a@host.localhost.', 'a@example.com']) {
      expect(() => loadConfig({ ...complete, MAIL_FROM: reserved }), reserved).toThrow(/MAIL_FROM .*reserved domain/);
    }
    expect(() => loadConfig({ ...complete, MAIL_FROM: 'Admissions' })).toThrow(/MAIL_FROM must be an e-mail address/);
    for (const message of [() => loadConfig({ ...complete, MAIL_FROM: undefined }), () => loadConfig({ ...complete, MAIL_FROM: 'a@college.example' })]) {
      try { message(); } catch (err) { expect((err as Error).message).not.toContain('\n'); }
    }
    expect(loadConfig(complete).MAIL_FROM).toBe('"Vhembe Admissions" <admissions@vhembe.ac.za>');
    expect(loadConfig({ ...complete, MAIL_FROM: 'admissions@testing.ac.za' }).MAIL_FROM).toBe('admissions@testing.ac.za');
    // Not production (the README's first command, the API tests): the college.example default still applies.
    expect(loadConfig({}).MAIL_FROM).toBe('"Vhembe Skills College Admissions" <admissions@college.example>');
  });

  it('MAIL_BOUNCE_ADDRESS must be an address when set (the envelope sender bounces go to)', () => {
    expect(loadConfig({ MAIL_BOUNCE_ADDRESS: 'bounces@vhembe.ac.za' }).MAIL_BOUNCE_ADDRESS).toBe('bounces@vhembe.ac.za');
    expect(loadConfig({ MAIL_BOUNCE_ADDRESS: '' }).MAIL_BOUNCE_ADDRESS).toBeUndefined();
    expect(() => loadConfig({ MAIL_BOUNCE_ADDRESS: 'bounces' })).toThrow(/MAIL_BOUNCE_ADDRESS: must be an e-mail address/);
  });

  it('SHUTDOWN_GRACE_MS: 8 000 ms with DATABASE_URL (HAProxy inter 1s fall 3, timeout check 5s: out up to 7–8 s after health turns 503) (several nodes), 0 on the embedded database, or as set; SHUTDOWN_TIMEOUT_MS 10 000', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/college' }).SHUTDOWN_GRACE_MS).toBe(8000);
    expect(loadConfig({}).SHUTDOWN_GRACE_MS).toBe(0);
    expect(loadConfig({ SHUTDOWN_GRACE_MS: '4000' }).SHUTDOWN_GRACE_MS).toBe(4000);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/college', SHUTDOWN_GRACE_MS: '0' }).SHUTDOWN_GRACE_MS).toBe(0);
    expect(loadConfig({}).SHUTDOWN_TIMEOUT_MS).toBe(10_000);
    expect(() => loadConfig({ SHUTDOWN_GRACE_MS: 'soon' })).toThrow(/SHUTDOWN_GRACE_MS/);
  });

  it('a relative DATA_DIR is taken from the folder npm was started in (INIT_CWD; npm runs scripts from the checkout), else the cwd; an absolute one as it is; the default .data is the checkout\'s', () => {
    expect(loadConfig({ DATA_DIR: 'x', INIT_CWD: '/srv/started-here' }).dataDir).toBe('/srv/started-here/x');
    expect(loadConfig({ DATA_DIR: '../college', INIT_CWD: '/srv/started-here/api' }).dataDir).toBe('/srv/started-here/college');
    expect(loadConfig({ DATA_DIR: '/var/college', INIT_CWD: '/srv/started-here' }).dataDir).toBe('/var/college');
    expect(loadConfig({ DATA_DIR: 'x' }).dataDir).toBe(path.resolve('x'));
    // The default is the checkout's .data, wherever npm was typed (cd api && npm start must not open a new, empty college).
    expect(loadConfig({ INIT_CWD: '/srv/started-here' }).dataDir).toBe(path.resolve('.data'));
    expect(resolveFromStartDir('a.tgz', { INIT_CWD: '/home/ops' })).toBe('/home/ops/a.tgz');
    expect(resolveFromStartDir('a.tgz', {})).toBe(path.resolve('a.tgz'));
  });
});
