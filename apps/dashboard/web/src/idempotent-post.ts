import { useState } from 'react';
import { api, ApiError } from './api';
import { idempotencyKeyFor, outcomeUnknown, type Unsettled } from './idempotency-key.policy';

/** 128 random bits in hex; getRandomValues, unlike randomUUID, works on a page served over plain http too. */
const newIdempotencyKey = (): string => Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');

/** A POST of an action; `target`, what it changes when its path does not name it, defaults to the path. */
export type IdempotentPost = <T>(path: string, body: unknown, target?: string) => Promise<T>;

/**
 * POSTs an action with an Idempotency-Key: one per action, the same again when the user retries a submission whose
 * outcome is unknown (idempotency-key.policy.ts), so the server answers what it made instead of making it twice.
 *
 * The unsettled submission is remembered per target: the path, or what the action changes when its path does not
 * name it (the simulator's session). One remembered for the whole page would let an action on endpoint B replace the
 * unsettled rotation of endpoint A, and A's retry, under a new key, would rotate A a second time: the secret made by
 * the first rotation, never shown and so not in use, would become the "previous" one, and the one the merchant's
 * server does use would stop at once.
 */
export function idempotentPoster(newKey: () => string = newIdempotencyKey): IdempotentPost {
  const unsettled = new Map<string, Unsettled>();
  return async <T>(path: string, body: unknown, target = path): Promise<T> => {
    const input = JSON.stringify([path, body]);
    const key = idempotencyKeyFor(unsettled.get(target), input, newKey);
    unsettled.set(target, { input, key });
    // Settled: the target's next submission is a new action (unless another one has become its unsettled one meanwhile).
    const settled = () => {
      if (unsettled.get(target)?.key === key) unsettled.delete(target);
    };
    try {
      const answer = await api<T>(path, { method: 'POST', body, idempotencyKey: key });
      settled();
      return answer;
    } catch (failure) {
      if (!outcomeUnknown(failure instanceof ApiError ? failure.status : undefined)) settled();
      throw failure;
    }
  };
}

/**
 * idempotentPoster for a component: the POSTs that make a secret shown once (a key, an endpoint, a rotation, a
 * merchant, a team user), a refund request and a simulated payment. It lives as long as the component does, so a
 * page whose sections may be remounted (the Developers page's keys, per mode) holds one for them all.
 */
export function useIdempotentPost(): IdempotentPost {
  const [post] = useState(() => idempotentPoster());
  return post;
}
