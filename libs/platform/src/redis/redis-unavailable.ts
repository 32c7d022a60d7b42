import { DomainError, ErrorCode } from '@pp/contracts';

/**
 * Throws a Redis failure (no answer within REDIS_COMMAND_TIMEOUT_MS, no
 * connection) as what it means to the caller's client: the service is
 * unavailable for now, try again (503 with Retry-After over HTTP), rather
 * than an internal error. `store` names what Redis held, for the logs.
 */
export const redisUnavailable =
  (store: string) =>
  (error: unknown): never => {
    throw new DomainError(ErrorCode.ServiceUnavailable, `${store} unavailable: ${error instanceof Error ? error.message : String(error)}`);
  };
