/**
 * Password hashing with argon2id, m = 19456 KiB, t = 2, p = 1 (ASVS 11.4.2; DESIGN §2).
 * Passwords are never truncated: the whole string is hashed.
 */
import { hash, verify, type Options } from '@node-rs/argon2';

/** `algorithm: 2` is Algorithm.Argon2id (a const enum, which erasable TypeScript cannot reference). */
export const ARGON2_OPTIONS: Options = { algorithm: 2 as Options['algorithm'], memoryCost: 19456, timeCost: 2, parallelism: 1 };

/**
 * The argon2id hash (PHC string `$argon2id$v=19$m=19456,t=2,p=1$…`) of the whole `password` (ASVS 11.4.2). Rejects only if the native binding fails.
 */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** True when `password` matches `hashed`; false (never throws) on malformed hashes. */
export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try { return await verify(hashed, password); } catch { return false; }
}

let dummy: Promise<string> | undefined;
/** Spends the same time as a real verify, so unknown e-mails are not revealed by timing (ASVS 6.3.8). */
export async function verifyDummy(password: string): Promise<void> {
  dummy ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(await dummy, password);
}
