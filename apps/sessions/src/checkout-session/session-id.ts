import { CHECKOUT_SESSION_ID_PATTERN, DomainError, ErrorCode } from '@pp/contracts';

/**
 * A session id a caller named (the sandbox's, from the gateway, the dashboard
 * or the checkout page), or NOT_FOUND as for an unknown session when no
 * session can have it: loaded, it would become a stream name the ledger
 * refuses with a message about its own naming.
 */
export function namedSessionId(id: string): string {
  if (!CHECKOUT_SESSION_ID_PATTERN.test(id)) throw new DomainError(ErrorCode.NotFound, 'Checkout session not found');
  return id;
}
