import { randomBytes } from 'node:crypto';
import { hash, verify, type Algorithm, type Options } from '@node-rs/argon2';

// `Algorithm` is an ambient const enum, which erasable TypeScript cannot read: 2 is Argon2id.
const ARGON2ID: Algorithm = 2;

/**
 * Argon2id with OWASP's first recommended setting (19 MiB, 2 passes, 1 lane): memory-hard, so a
 * stolen table is slow to attack on GPUs, and about 20 ms per sign-in here.
 */
export const PASSWORD_HASH_OPTIONS: Readonly<Options> = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
  outputLen: 32,
};

/** A PHC string (`$argon2id$v=19$m=19456,t=2,p=1$…`) with a random salt. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_HASH_OPTIONS);
}

/** Whether `password` matches `passwordHash`; a malformed hash is a mismatch, not an error. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as a real check against an account that does not exist, so the answer
 * time does not tell whether an e-mail or username is known.
 */
export async function verifyDummyPassword(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString('base64url'));
  await verifyPassword(await dummyHash, password);
  return false;
}
