import type { ArgumentsHost } from '@nestjs/common';
import { DomainError, ErrorCode } from '@pp/contracts';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { JsonLogger } from '../logging/json-logger';
import { CONCURRENCY_CONFLICT_ANSWER } from './concurrency-conflict';
import { domainErrorAnswer, JsonErrorFilter } from './json-error.filter';
import { carryRequestIds } from './request-id';

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

describe('JsonErrorFilter (the dashboard’s errors)', () => {
  const logged: Record<string, unknown>[] = [];
  const filter = new JsonErrorFilter(new JsonLogger('dashboard', 'debug', (line) => logged.push(JSON.parse(line))));
  const app = Fastify();
  // As the dashboard's configure-http does: the request's id on its answer and in its logs.
  carryRequestIds(app);
  const failingWith = (error: unknown) => (request: FastifyRequest, reply: FastifyReply) => {
    filter.catch(error, { switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }) } as unknown as ArgumentsHost);
  };
  // As the bus client words it: an internal subject the user must not see, which the log must name.
  const busFailure = 'No service is answering refunds.request.v1';
  const lostRace = 'Stream refund-rf_1 is no longer at version 3';
  app.post('/api/payments/:id/refund', failingWith(new DomainError(ErrorCode.ServiceUnavailable, busFailure)));
  app.get('/api/payments', failingWith(new DomainError(ErrorCode.ServiceUnavailable, busFailure)));
  app.post('/api/refunds/:id/cancel', failingWith(new DomainError(ErrorCode.ConcurrencyConflict, lostRace)));

  beforeEach(() => {
    logged.length = 0;
  });
  afterAll(() => app.close());

  it('given a service that does not answer, when a user acts, then 503 and exactly one warning with the request id, the error, the path and the method', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/payments/pay_1/refund', headers: { 'x-request-id': 'req-503.a' } });
    expect({ status: response.statusCode, body: response.json(), retryAfter: response.headers['retry-after'] }).toEqual({ status: 503, body: { error: 'Service unavailable' }, retryAfter: '1' });
    expect(logged).toEqual([
      expect.objectContaining({ level: 'warn', msg: 'service unavailable', request_id: 'req-503.a', error: busFailure, path: '/api/payments/pay_1/refund', method: 'POST' }),
    ]);
  });

  it('given a service that does not answer a search, then the warning names the path without the query (a payer’s name)', async () => {
    await app.inject({ method: 'GET', url: '/api/payments?reference=Jane%20Doe%20rent' });
    expect(logged).toEqual([expect.objectContaining({ level: 'warn', path: '/api/payments' })]);
    expect(JSON.stringify(logged)).not.toContain('Jane');
  });

  it('given a command that lost every round to concurrent writes, then 409 with fixed words and exactly one warning with the ledger’s', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/refunds/rf_1/cancel', headers: { 'x-request-id': 'req-409.a' } });
    expect({ status: response.statusCode, body: response.json() }).toEqual({ status: 409, body: { error: 'Too many concurrent changes; retry' } });
    expect(logged).toEqual([expect.objectContaining({ level: 'warn', msg: 'concurrency conflict', request_id: 'req-409.a', error: lostRace, path: '/api/refunds/rf_1/cancel', method: 'POST' })]);
  });
});
