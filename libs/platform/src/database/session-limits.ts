/** What Postgres ends on a connection (a statement that runs too long, a transaction left open and idle), and how long the client waits for an answer. */
export interface SessionLimits {
  statementTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  /**
   * How long the client waits for a statement's answer, counted from when it
   * was issued (node-postgres starts the clock in query(), so a statement
   * queued behind others on the connection, a pipelined batch's last one,
   * counts their time too), before it ends the connection (PreparingClient).
   */
  answerTimeoutMs: number;
}

/**
 * The limits on every connection a service opens for its own work (its
 * pool, the ledger's group commit and publisher). No statement of a
 * service's runs for seconds, and the caller on the bus has given up after
 * NATS_REQUEST_TIMEOUT_MS (5 s) anyway; a statement still running after 30 s
 * is stuck (behind a lock, or on a plan gone wrong), and Postgres cancels it
 * rather than let it hold the connection for good. A transaction left open and idle that long
 * belongs to a process that froze mid-work (a stopped container, a paused
 * VM): Postgres ends its session, which releases its locks, so the other
 * replicas waiting on them (the ledger's stream locks, stream-locks.ts) go
 * on. A statement with no answer 60 s after it was issued, twice what
 * Postgres lets a statement run (room for one that waited behind another on
 * its connection), went to a server that froze or vanished while the
 * statement was on its way (TCP keepalive only probes a quiet connection;
 * one with a statement not yet acknowledged waits for TCP to give up, some
 * 15 minutes): the client ends the connection, which leaves its pool, and
 * the next statement connects anew. Migrations and the ledger's rebuild run
 * as the owner without them: they may take long.
 */
export const SERVICE_SESSION_LIMITS: SessionLimits = { statementTimeoutMs: 30_000, idleInTransactionTimeoutMs: 30_000, answerTimeoutMs: 60_000 };

/** The limits as the options node-postgres takes for each new connection (pg's ClientConfig): two run-time parameters Postgres applies, and the client's own answer deadline. */
export const sessionLimitParameters = (
  limits: SessionLimits,
): { statement_timeout: number; idle_in_transaction_session_timeout: number; query_timeout: number } => ({
  statement_timeout: limits.statementTimeoutMs,
  idle_in_transaction_session_timeout: limits.idleInTransactionTimeoutMs,
  query_timeout: limits.answerTimeoutMs,
});
