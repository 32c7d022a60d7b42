import { DomainError, ErrorCode } from '@pp/contracts';
import { isConnectionLost } from '@pp/platform';

/** Node's socket and DNS errors of a database it cannot reach. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** What pg-pool and node-postgres throw, without a code, when no connection came within DATABASE_CONNECT_TIMEOUT_MS. */
const CONNECT_TIMEOUTS = ['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout'];
/** SQLSTATEs of a server too busy to answer: query_canceled (statement_timeout), too_many_connections. */
const OVERLOADED = new Set(['57014', '53300']);

/**
 * Whether a key lookup failed because the database could not answer (down,
 * unreachable, its connection lost, too busy), as opposed to the statement
 * itself being wrong. TypeORM wraps a statement's failure as `driverError`.
 */
export function databaseCouldNotAnswer(error: unknown): boolean {
  if (isConnectionLost(error)) return true;
  if (typeof error !== 'object' || error === null) return false;
  const failure = (error as { driverError?: { code?: unknown; message?: unknown } }).driverError ?? (error as { code?: unknown; message?: unknown });
  const code = typeof failure.code === 'string' ? failure.code : '';
  return UNREACHABLE.has(code) || OVERLOADED.has(code) || (typeof failure.message === 'string' && CONNECT_TIMEOUTS.includes(failure.message));
}

/**
 * Throws a key lookup's failure as what it means to the client: when the
 * database could not answer, the service is unavailable for now, try again
 * (503 with Retry-After, as when a service on the bus does not answer),
 * rather than an internal error; anything else as it is.
 */
export function keyLookupFailed(error: unknown): never {
  if (!databaseCouldNotAnswer(error)) throw error;
  throw new DomainError(ErrorCode.ServiceUnavailable, `API key lookup failed: ${error instanceof Error ? error.message : String(error)}`);
}
