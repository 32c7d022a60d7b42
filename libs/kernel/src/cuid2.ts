import { createHash, randomFillSync } from 'node:crypto';

/**
 * The CUID2 algorithm of @paralleldrive/cuid2 (same inputs, same ids), with
 * Node's native SHA3-512 and BigInt instead of the package's pure-JS hash and
 * bignumber.js, which cost about 0.4 ms of CPU per id: too much on paths that
 * mint ids per request (sessions, events).
 */
export interface Cuid2Options {
  /** A uniform number in [0, 1): a CSPRNG by default. */
  random?: () => number;
  counter?: () => number;
  fingerprint?: string;
  length?: number;
}

const BIG_LENGTH = 32;

/** Random numbers in [0, 1) from a CSPRNG, drawn 1,024 at a time. */
const secureRandom = (() => {
  const pool = new Uint32Array(1024);
  let next = pool.length;
  return (): number => {
    if (next === pool.length) {
      randomFillSync(pool);
      next = 0;
    }
    return pool[next++] / 0x100000000;
  };
})();

function entropy(length: number, random: () => number): string {
  let out = '';
  while (out.length < length) out += Math.floor(random() * 36).toString(36);
  return out;
}

/** SHA3-512 of the input as a base-36 number, first digit dropped (it is biased). */
const hash = (input: string): string => BigInt(`0x${createHash('sha3-512').update(input).digest('hex')}`).toString(36).slice(1);

const fingerprintOf = (random: () => number): string => {
  const globals = Object.keys(globalThis).toString();
  return hash(globals + entropy(BIG_LENGTH, random)).substring(0, BIG_LENGTH);
};

const counterFrom = (start: number) => {
  let count = start;
  return () => count++;
};

export function initCuid2(options: Cuid2Options = {}): () => string {
  const random = options.random ?? secureRandom;
  const counter = options.counter ?? counterFrom(Math.floor(random() * 476782367));
  const length = options.length ?? 24;
  const fingerprint = options.fingerprint ?? fingerprintOf(random);
  return () => {
    const firstLetter = String.fromCharCode(97 + Math.floor(random() * 26));
    const input = Date.now().toString(36) + entropy(length, random) + counter().toString(36) + fingerprint;
    return firstLetter + hash(input).substring(1, length);
  };
}

export const createCuid2: () => string = initCuid2();
