import { randomBytes, scrypt, type ScryptOptions, timingSafeEqual } from 'node:crypto';
import { DomainError, ErrorCode } from '@pp/contracts';
import { randomToken } from '@pp/kernel';
import { NoSlotFree, WorkSlots } from './work-slots';

/**
 * scrypt cost parameters: N=2^15, r=8, p=3, one of OWASP's equivalent
 * minimums. It keeps the 32 MB of p=1 (p runs its rounds one after another),
 * so concurrent sign-ins need no more memory, and triples the work instead.
 */
const PARAMS = { N: 32768, r: 8, p: 3 } as const;
/** Room for the stored parameters a hash may have been made with (32 MB at N=2^15, r=8). */
const MAX_MEMORY = 64 * 1024 * 1024;
const KEY_LENGTH = 32;

/**
 * Hashes at once: two of libuv's four threads, so the gateway's DNS lookups
 * and other crypto keep two; 32 more wait in line (a couple of seconds at
 * most). A sign-in flood past that is answered 503 at once (each costs
 * about 100 ms of a core, unknown e-mails alike), not queued without end.
 */
const HASHING = new WorkSlots(2, 32);
export const PASSWORD_WORK_BUSY = 'Too many passwords being checked at once: try again in a moment';

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return HASHING.run(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: MAX_MEMORY }, (error, key) => (error ? reject(error) : resolve(key))),
      ),
  ).catch((error: unknown) => {
    throw error instanceof NoSlotFree ? new DomainError(ErrorCode.ServiceUnavailable, PASSWORD_WORK_BUSY) : error;
  });
}

/** "scrypt$N$r$p$<salt>$<hash>" (base64url), so the parameters can be raised later without breaking stored hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash made with other parameters than today's: rehashed at the next sign-in, while the password is at hand. */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) !== PARAMS.N || Number(r) !== PARAMS.r || Number(p) !== PARAMS.p;
}

/** A password for a user created without one: 128 random bits, shown once. */
export const generatePassword = (): string => randomToken(16);

/**
 * The hash of the password a caller chose, or of one generated for it when it chose none, with what a view shows of
 * it: `{ password }` only when generated (shown once), never a password the caller gave.
 */
export async function chosenOrGeneratedPassword(chosen: string | undefined): Promise<{ hash: string; shown: { password?: string } }> {
  const generated = chosen === undefined ? generatePassword() : undefined;
  return { hash: await hashPassword(chosen ?? generated!), shown: generated ? { password: generated } : {} };
}
