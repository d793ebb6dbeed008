/** loadConfig as an operator meets it: the graceful-stop defaults. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('SHUTDOWN_GRACE_MS: 2 500 ms with DATABASE_URL (several nodes), 0 on the embedded database, or as set; SHUTDOWN_TIMEOUT_MS 10 000', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/college' }).SHUTDOWN_GRACE_MS).toBe(2500);
    expect(loadConfig({}).SHUTDOWN_GRACE_MS).toBe(0);
    expect(loadConfig({ SHUTDOWN_GRACE_MS: '4000' }).SHUTDOWN_GRACE_MS).toBe(4000);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/college', SHUTDOWN_GRACE_MS: '0' }).SHUTDOWN_GRACE_MS).toBe(0);
    expect(loadConfig({}).SHUTDOWN_TIMEOUT_MS).toBe(10_000);
    expect(() => loadConfig({ SHUTDOWN_GRACE_MS: 'soon' })).toThrow(/SHUTDOWN_GRACE_MS/);
  });
});
