import { useRef } from 'react';
import { api, ApiError } from './api';
import { idempotencyKeyFor, outcomeUnknown, type Unsettled } from './idempotency-key.policy';

/** 128 random bits in hex; getRandomValues, unlike randomUUID, works on a page served over plain http too. */
const newIdempotencyKey = (): string => Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');

/**
 * POSTs an action that makes a secret shown once (a key, an endpoint, a rotation, a merchant, a team user), or a refund request, with an Idempotency-Key
 * (the server requires one): one per action, the same again when the user retries a submission whose outcome is
 * unknown (idempotency-key.policy.ts), so the server answers what it made instead of making it twice. One per action
 * of a component: each keeps its own unsettled submission.
 */
export function useIdempotentPost(): <T>(path: string, body: unknown) => Promise<T> {
  const unsettled = useRef<Unsettled | undefined>(undefined);
  return async <T>(path: string, body: unknown): Promise<T> => {
    const input = JSON.stringify([path, body]);
    const key = idempotencyKeyFor(unsettled.current, input, newIdempotencyKey);
    unsettled.current = { input, key };
    // Settled: the next submission is a new action (unless another one has become the unsettled one meanwhile).
    const settled = () => {
      if (unsettled.current?.key === key) unsettled.current = undefined;
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
