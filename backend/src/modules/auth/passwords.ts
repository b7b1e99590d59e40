import { randomBytes } from 'node:crypto';
import { type Algorithm, hash, type Options, verify } from '@node-rs/argon2';

/**
 * Algorithm.Argon2id: the enum is a `const enum` in the typings (unreadable under isolatedModules) and an
 * empty object at run time, so its value is spelled out. Argon2id is also the library's default.
 */
const ARGON2ID = 2 as Algorithm;

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
const HASH_OPTIONS: Options = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, HASH_OPTIONS);
}

/**
 * Whether `password` matches `passwordHash`; a malformed hash is a mismatch, never an error. No hash (an
 * account a sign-in provider made) matches nothing, after the time of one verification.
 */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (passwordHash === null) return verifyNothing(password);
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the time of one verification and fails: used when no account matches, so the answer takes as
 * long as a wrong password and timing does not tell which accounts exist.
 */
export async function verifyNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString('base64url'));
  await verifyPassword(await dummyHash, password);
  return false;
}
