import { DomainError, ErrorCode } from '@pp/contracts';

/** Enough for any realistic burst on one stream; a caller still losing after that gets the conflict. */
const MAX_ATTEMPTS = 10;

/**
 * Runs a load-decide-append again when another command moved one of its
 * streams first (CONCURRENCY_CONFLICT from the ledger): deciding on the new
 * state ends in exactly one winner, and each loser answers from what the
 * winner did.
 */
export async function retryOnConcurrencyConflict<T>(attempt: () => Promise<T>): Promise<T> {
  for (let round = 1; ; round++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof DomainError && error.code === ErrorCode.ConcurrencyConflict) || round >= MAX_ATTEMPTS) throw error;
    }
  }
}
