/**
 * Child-process entry for benchmarks and fault tests: starts the production server with this process's
 * environment (`startServer(process.env)`) and reports `{ url, pid }` to the parent over IPC (or prints
 * `READY <url>` without IPC). SIGTERM closes it cleanly; SIGKILL is what the crash test uses.
 */
import { startServer } from '../api/src/server.ts';

const s = await startServer(process.env, { waitForSite: process.env.WAIT_FOR_SITE === '1' });
if (process.send) process.send({ url: s.url, pid: process.pid });
else console.log(`READY ${s.url}`);
process.once('SIGTERM', () => { void s.close().finally(() => process.exit(0)); });
process.once('SIGINT', () => { void s.close().finally(() => process.exit(0)); });
