/** The parts of a node-postgres error a caller looks at. */
interface PgError {
  code?: string;
  constraint?: string;
  message?: unknown;
}

/** node-postgres's error, whether thrown as it is or wrapped by TypeORM as `driverError`. */
function pgErrorOf(error: unknown): PgError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  return ((error as { driverError?: PgError }).driverError ?? error) as PgError;
}

/**
 * Whether a prepared statement was refused because its result's row type changed since it was prepared (SQLSTATE
 * 0A000, "cached plan must not change result type": a migration reshaped a table it reads).
 */
export const isCachedPlanReshaped = (error: unknown): boolean => pgErrorOf(error)?.code === '0A000';

/** Whether a statement failed on a unique constraint (SQLSTATE 23505). */
export const isUniqueViolation = (error: unknown): boolean => pgErrorOf(error)?.code === '23505';

/** Whether Postgres broke a deadlock by failing this statement (SQLSTATE 40P01): the other transaction goes on. */
export const isDeadlock = (error: unknown): boolean => pgErrorOf(error)?.code === '40P01';

/**
 * Whether a statement gave up waiting for a lock (SQLSTATE 55P03,
 * lock_not_available): its wait ran past lock_timeout, or it asked for the
 * lock with NOWAIT. Whoever held the lock goes on; the statement's
 * transaction can only roll back.
 */
export const isLockNotAvailable = (error: unknown): boolean => pgErrorOf(error)?.code === '55P03';

/** The unique constraint a statement violated, if that is what failed. */
export const violatedUniqueConstraint = (error: unknown): string | undefined => (isUniqueViolation(error) ? pgErrorOf(error)?.constraint : undefined);

/** SQLSTATEs of a server that ended the session: admin_shutdown, crash_shutdown, cannot_connect_now. */
const SESSION_ENDED = new Set(['57P01', '57P02', '57P03']);
/** node-postgres's error for a statement unanswered past its query_timeout; PreparingClient then ends the connection. */
export const PG_ANSWER_TIMED_OUT = 'Query read timeout';
/** What node-postgres throws, without a code, for a connection it lost, had already lost, or gave up on (pg/lib/client.js). */
const LOST_MESSAGES = ['Connection terminated unexpectedly', 'Client has encountered a connection error and is not queryable', PG_ANSWER_TIMED_OUT];
/** Socket errors of a connection the other end closed or reset. */
const SOCKET_LOST = new Set(['ECONNRESET', 'EPIPE']);

/**
 * Whether a statement failed because the connection under it was lost (the
 * server ended the session, the socket was reset or closed, or no answer
 * came in time and the client ended it), as opposed to
 * the statement itself failing. A transaction whose COMMIT was never sent
 * before such a loss committed nothing: Postgres rolls back the open
 * transaction of a session that ends.
 */
export function isConnectionLost(error: unknown): boolean {
  const failure = pgErrorOf(error);
  if (!failure) return false;
  const code = failure.code ?? '';
  return SESSION_ENDED.has(code) || code.startsWith('08') || SOCKET_LOST.has(code) || (typeof failure.message === 'string' && LOST_MESSAGES.includes(failure.message));
}
