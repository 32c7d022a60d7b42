import { isConnectionLost, isDeadlock, isLockNotAvailable, isUniqueViolation, violatedUniqueConstraint } from './pg-errors';

const pgError = (code: string, constraint?: string) => Object.assign(new Error('failed'), { code, constraint });

describe('Postgres errors', () => {
  it('given a unique violation, thrown as it is or wrapped by TypeORM, when read, then it names its constraint', () => {
    expect(violatedUniqueConstraint(pgError('23505', 'emails_pkey'))).toBe('emails_pkey');
    expect(violatedUniqueConstraint({ driverError: pgError('23505', 'emails_pkey') })).toBe('emails_pkey');
    expect(isUniqueViolation({ driverError: pgError('23505') })).toBe(true);
  });

  it('given another failure, when read, then it is no unique violation', () => {
    expect(violatedUniqueConstraint(pgError('23503', 'emails_fkey'))).toBeUndefined();
    expect(isUniqueViolation(new Error('connection lost'))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
  });

  it('given Postgres broke a deadlock, thrown as it is or wrapped, when read, then it is a deadlock and nothing else is', () => {
    expect(isDeadlock(pgError('40P01'))).toBe(true);
    expect(isDeadlock({ driverError: pgError('40P01') })).toBe(true);
    expect(isDeadlock(pgError('40001'))).toBe(false);
    expect(isDeadlock(new Error('deadlock detected'))).toBe(false);
  });

  it('given a statement that gave up waiting for a lock, thrown as it is or wrapped, when read, then the lock was not available and nothing else is', () => {
    expect(isLockNotAvailable(pgError('55P03'))).toBe(true);
    expect(isLockNotAvailable({ driverError: pgError('55P03') })).toBe(true);
    // A statement timeout (57014), a deadlock (40P01), an object in use (55006) or in the wrong state (55000): other failures, not a lock wait cut short.
    for (const code of ['57014', '40P01', '55006', '55000']) expect(isLockNotAvailable(pgError(code))).toBe(false);
    expect(isLockNotAvailable(new Error('canceling statement due to lock timeout'))).toBe(false);
    expect(isLockNotAvailable(undefined)).toBe(false);
  });

  it('given the server ended the session, the socket failed, or node-postgres lost the connection, when read, then the connection was lost', () => {
    for (const code of ['57P01', '57P02', '57P03', '08006', '08003']) expect(isConnectionLost(pgError(code))).toBe(true);
    for (const code of ['ECONNRESET', 'EPIPE']) expect(isConnectionLost(Object.assign(new Error('socket'), { code }))).toBe(true);
    expect(isConnectionLost(new Error('Connection terminated unexpectedly'))).toBe(true);
    // No answer within query_timeout: PreparingClient ends the connection (a transaction whose COMMIT was not sent commits nothing).
    expect(isConnectionLost(new Error('Query read timeout'))).toBe(true);
    expect(isConnectionLost(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
    expect(isConnectionLost({ driverError: pgError('57P01') })).toBe(true);
  });

  it('given a statement that failed on its own (a constraint, a serialization failure, a timeout, our own end()), when read, then the connection was not lost', () => {
    for (const code of ['23505', '40001', '57014', '42P01']) expect(isConnectionLost(pgError(code))).toBe(false);
    expect(isConnectionLost(new Error('Connection terminated'))).toBe(false);
    expect(isConnectionLost(new Error('Client was closed and is not queryable'))).toBe(false);
    expect(isConnectionLost(undefined)).toBe(false);
    expect(isConnectionLost('Connection terminated unexpectedly')).toBe(false);
  });
});
