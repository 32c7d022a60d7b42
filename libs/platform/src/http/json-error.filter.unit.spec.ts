import { DomainError, ErrorCode } from '@pp/contracts';
import { CONCURRENCY_CONFLICT_ANSWER } from './concurrency-conflict';
import { domainErrorAnswer } from './json-error.filter';

describe('domainErrorAnswer (the dashboard’s answer to a service’s refusal)', () => {
  it('given a domain refusal, then its status and its own words', () => {
    expect(domainErrorAnswer(new DomainError(ErrorCode.Conflict, 'Reference already exists'))).toEqual({ status: 409, message: 'Reference already exists' });
    expect(domainErrorAnswer(new DomainError(ErrorCode.NotFound, 'Payment not found'))).toEqual({ status: 404, message: 'Payment not found' });
  });

  it('given a command that lost every round to concurrent writes, then a fixed message and a retry, never the ledger’s stream names', () => {
    const lost = new DomainError(ErrorCode.ConcurrencyConflict, 'Stream transaction-txn_1 is no longer at version 3');
    expect(domainErrorAnswer(lost)).toEqual(CONCURRENCY_CONFLICT_ANSWER);
    expect(CONCURRENCY_CONFLICT_ANSWER).toEqual({ status: 409, message: 'Too many concurrent changes; retry', headers: { 'Retry-After': '1' } });
  });

  it('given a service that is down or failed, then 503 with a retry, or nothing (logged and answered 500 by the filter)', () => {
    expect(domainErrorAnswer(new DomainError(ErrorCode.ServiceUnavailable, 'no responders'))).toEqual({ status: 503, message: 'Service unavailable', headers: { 'Retry-After': '1' } });
    expect(domainErrorAnswer(new DomainError(ErrorCode.Internal, 'boom'))).toBeUndefined();
  });
});
