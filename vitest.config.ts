import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['api/**/*.test.ts', 'site/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['api/src/test/global-setup.ts'],
    pool: 'forks',
    // Test files share their worker's modules (no re-import per file: about half the stage's time); each test app
    // has its own database and DATA_DIR (api/src/test/harness.ts), so files do not see each other's data.
    isolate: false,
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
