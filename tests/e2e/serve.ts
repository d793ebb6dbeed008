/** Starts the production server for Playwright on a fresh temporary DATA_DIR with a known admin. */
import fs from 'node:fs';
import { startServer } from '../../api/src/server.ts';
import { E2E_ADMIN, E2E_DATA_DIR, E2E_PORT, E2E_SMS_WEBHOOK_SECRET } from './fixtures.ts';

// The folder of this port (fixtures.ts reads the mail outbox there), emptied of anything an earlier run left.
const dataDir = E2E_DATA_DIR;
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });
// admin.spec links course and announcement pictures on a host of its own at 127.0.0.1. Read by the `astro build`
// child, whose environment is this process's (site-build/builder.ts), so it is set here rather than in `env`.
process.env.SITE_IMAGES_FROM_PRIVATE_HOSTS = '1';
const env: NodeJS.ProcessEnv = {
  ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: String(E2E_PORT), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${E2E_PORT}`,
  // Production refuses a reserved sender domain (config.ts mailFromProblem); mail only goes to DATA_DIR/outbox here.
  MAIL_FROM: '"Vhembe Skills College Admissions" <admissions@vhembe.ac.za>',
  // The browser specs register well over the soft per-IP limit from 127.0.0.1; the proof-of-work path has its own API test.
  REGISTER_SOFT_LIMIT: '1000',
  SESSION_SECRET: 'e2e-session-secret-0123456789abcdef', ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password,
  SITE_BUILD: 'always', SITE_BUILD_DEBOUNCE_MS: '200',
  // The SMS gateway's reply webhook (sms.spec.ts sends STOP and START as BulkSMS would).
  SMS_WEBHOOK_SECRET: E2E_SMS_WEBHOOK_SECRET,
};
delete env.DATABASE_URL;
const s = await startServer(env, { waitForSite: true });
console.info(`e2e server ready on ${s.url} (data ${dataDir})`);
const stop = async () => { await s.close(); fs.rmSync(dataDir, { recursive: true, force: true }); process.exit(0); };
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
