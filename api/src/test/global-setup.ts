/**
 * Vitest global setup (DESIGN §5 test harness): on PGlite (no DATABASE_URL), migrates one in-memory database and
 * writes its data folder to a temporary tarball, whose path the test files receive as `inject('pgliteTemplate')`;
 * `startTestApp` starts each file's database from it instead of creating a cluster and migrating again (≈ 2 s less
 * per test app). The tarball is removed after the run. On PostgreSQL it does nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { pgliteTemplate } from '../db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext { pgliteTemplate: string }
}

/** Writes the template and provides its path; resolves to the teardown that deletes it (nothing on PostgreSQL). */
export default async function setup(project: TestProject): Promise<(() => void) | void> {
  if (process.env.DATABASE_URL) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'college-pglite-template-'));
  const file = path.join(dir, 'template.tar');
  fs.writeFileSync(file, Buffer.from(await (await pgliteTemplate()).arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
