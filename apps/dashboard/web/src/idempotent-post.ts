import { api, ApiError } from './api';
import { afterOutcome, afterSending, canonicalJson, idempotencyKeyFor, type Outcome, outcomeOfFailure, type Unsettled } from './idempotency-key.policy';
import { memoryStore, tabStore, type UnsettledStore } from './unsettled-store';

/** 128 random bits in hex; getRandomValues, unlike randomUUID, works on a page served over plain http too. */
const newIdempotencyKey = (): string => Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');

/** SHA-256 (hex) of the text; undefined where the browser has no crypto.subtle (a page over plain http, not localhost). */
async function sha256Hex(text: string): Promise<string | undefined> {
  if (!globalThis.crypto?.subtle) return undefined;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * A POST of an action. `changes` names the one existing thing it changes in place (the endpoint whose secret it
 * rotates), for whose other unsettled changes its answer settles (idempotency-key.policy.ts afterOutcome); a creation
 * (a key, an endpoint, a refund request, a simulated payment) names none.
 */
export type IdempotentPost = <T>(path: string, body: unknown, changes?: string) => Promise<T>;

export interface PosterParts {
  newKey?: () => string;
  /** Where unsettled submissions are kept: the tab's sessionStorage, by their fingerprint. */
  store?: UnsettledStore;
  /** Where they are kept when no fingerprint can be made: the page's memory, which may hold the input itself. */
  memory?: UnsettledStore;
  now?: () => number;
}

/**
 * POSTs an action with an Idempotency-Key: one per action, the same again when the user retries a submission whose
 * outcome is unknown, so the server answers what it made instead of making it twice.
 *
 * Every unsettled submission is remembered by its input (path and body), not one per target: creating webhook
 * endpoint B after A's creation was lost (a 503 after the commit) must leave A's retry under A's key, or A is made
 * twice. They are remembered in the tab's sessionStorage (unsettled-store.ts), so a reload or another page of the tab
 * still retries under the first key, as a fingerprint only: a webhook URL may hold a token, and storage is no place
 * for it. Settled ones are forgotten, and the rest after the 24 h the server answers a key again, past a bound.
 */
export function idempotentPoster({ newKey = newIdempotencyKey, store = tabStore(), memory = memoryStore(), now = Date.now }: PosterParts = {}): IdempotentPost {
  return async <T>(path: string, body: unknown, changes?: string): Promise<T> => {
    const input = canonicalJson([path, body]);
    const fingerprint = await sha256Hex(input);
    // No fingerprint: the input itself stands for it, in the page's memory only, never in storage.
    const kept = fingerprint === undefined ? memory : store;
    const submission = { changes: changes ?? null, fingerprint: fingerprint ?? input };
    const sentAt = now();
    const sent: Unsettled = { ...submission, key: idempotencyKeyFor(kept.read(), submission, sentAt, newKey), sent_at: sentAt };
    kept.write(afterSending(kept.read(), sent, sentAt));
    const settle = (outcome: Outcome) => kept.write(afterOutcome(kept.read(), sent, outcome));
    try {
      const answer = await api<T>(path, { method: 'POST', body, idempotencyKey: sent.key });
      settle('answered');
      return answer;
    } catch (failure) {
      settle(outcomeOfFailure(failure instanceof ApiError ? failure.status : undefined));
      throw failure;
    }
  };
}

let tabPoster: IdempotentPost | undefined;

/**
 * The tab's idempotentPoster, for the POSTs that make a secret shown once (a key, an endpoint, a rotation, a
 * merchant, a team user), a refund request and a simulated payment. One for every page: what one remembers, all do.
 */
export function useIdempotentPost(): IdempotentPost {
  tabPoster ??= idempotentPoster();
  return tabPoster;
}
