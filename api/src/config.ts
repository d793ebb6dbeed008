/**
 * Server configuration, parsed once from the environment with zod.
 * Throws ConfigError with a message naming the variable to set (issue #2 "Bad input").
 */
import { z } from 'zod';
import path from 'node:path';

export class ConfigError extends Error {}

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  HOST: z.string().default('localhost'),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: z.string().optional().transform((v) => (v && v.trim() ? v.trim() : undefined)),
  SESSION_SECRET: z.string().optional(),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(6).optional(),
  PUBLIC_URL: z.string().url().optional(),
  TRUST_PROXY: z.string().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Admissions <admissions@college.example>'),
  OFFICE_EMAIL: z.string().default('info@college.example'),
  SITE_BUILD: z.enum(['auto', 'always', 'never']).default('auto'),
  SITE_BUILD_HOOK_URL: z.string().url().optional(),
  SITE_BUILD_DEBOUNCE_MS: z.coerce.number().int().min(0).default(1500),
  EXTERNAL_DRIVER: z.enum(['local', 'http']).default('local'),
  EXTERNAL_API_URL: z.string().url().optional(),
  PORTAL_ACCESS_URL: z.string().url().default('https://portal.college.example/'),
  APPLICATION_FEE: z.string().regex(/^\d+\.\d{2}$/).default('50.00'),
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(100),
});

export type Config = z.infer<typeof EnvSchema> & { dataDir: string; sessionSecret: string };

/** Parses `env` (default process.env). Throws ConfigError naming what to set. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  if (c.NODE_ENV === 'production' && !c.SESSION_SECRET) {
    throw new ConfigError('SESSION_SECRET must be set in production (a random string of at least 16 characters, e.g. `openssl rand -hex 32`).');
  }
  if (c.SESSION_SECRET && c.SESSION_SECRET.length < 16) {
    throw new ConfigError('SESSION_SECRET is too short: use at least 16 characters.');
  }
  if (c.DATABASE_URL && !/^postgres(ql)?:\/\//.test(c.DATABASE_URL)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL (or unset it to use the embedded database).');
  }
  if (c.EXTERNAL_DRIVER === 'http' && !c.EXTERNAL_API_URL) {
    throw new ConfigError('EXTERNAL_API_URL must be set when EXTERNAL_DRIVER=http.');
  }
  return {
    ...c,
    dataDir: path.resolve(c.DATA_DIR),
    sessionSecret: c.SESSION_SECRET ?? 'dev-only-session-secret-change-me',
  };
}
