import { DomainError, ErrorCode, MEMO_TAKEN_RULE } from '@pp/contracts';

/**
 * Memos drawn for one new session before giving up. A memo is unique over
 * every session ever made (a late transfer must never match a newer
 * session), drawn from 31^6 (libs/kernel memo.ts): a draw is taken only
 * once a large share of that space is used, so five taken in a row means
 * the space is that full.
 */
export const MEMO_ATTEMPTS = 5;

const isMemoTaken = (error: unknown): boolean =>
  error instanceof DomainError && error.code === ErrorCode.Conflict && error.details?.rule === MEMO_TAKEN_RULE;

/**
 * Runs `append` (which draws a new memo each time) again while the ledger
 * refuses its memo as taken. When every draw is taken, the answer is 503,
 * not the ledger's 409: nothing is wrong with the merchant's request, and
 * 409 means a reference already used.
 */
export async function withFreshMemo<T>(append: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await append();
    } catch (error) {
      if (!isMemoTaken(error)) throw error;
      if (attempt >= MEMO_ATTEMPTS) throw new DomainError(ErrorCode.ServiceUnavailable, 'No free memo could be drawn for the session; retry later', { rule: MEMO_TAKEN_RULE });
    }
  }
}
