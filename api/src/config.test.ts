/** loadConfig as an operator meets it: what production requires, and the graceful-stop defaults. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const production = { NODE_ENV: 'production', SESSION_SECRET: 'production-secret-0123456789' };

describe('loadConfig', () => {
  it('production requires PUBLIC_URL (e-mailed links would otherwise take whichever node answered), naming it', () => {
    expect(() => loadConfig(production)).toThrow(ConfigError);
    expect(() => loadConfig(production)).toThrow(/PUBLIC_URL must be set in production/);
    expect(loadConfig({ ...production, PUBLIC_URL: 'https://apply.college.example' }).PUBLIC_URL).toBe('https://apply.college.example');
    expect(loadConfig({}).PUBLIC_URL).toBeUndefined();
  });

  it('SHUTDOWN_GRACE_MS: 4 000 ms with DATABASE_URL (HAProxy inter 1s fall 3: 3 s) (several nodes), 0 on the embedded database, or as set; SHUTDOWN_TIMEOUT_MS 10 000', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/college' }).SHUTDOWN_GRACE_MS).toBe(4000);
    expect(loadConfig({}).SHUTDOWN_GRACE_MS).toBe(0);
    expect(loadConfig({ SHUTDOWN_GRACE_MS: '4000' }).SHUTDOWN_GRACE_MS).toBe(4000);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/college', SHUTDOWN_GRACE_MS: '0' }).SHUTDOWN_GRACE_MS).toBe(0);
    expect(loadConfig({}).SHUTDOWN_TIMEOUT_MS).toBe(10_000);
    expect(() => loadConfig({ SHUTDOWN_GRACE_MS: 'soon' })).toThrow(/SHUTDOWN_GRACE_MS/);
  });
});
