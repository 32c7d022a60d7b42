import type { ArgumentsHost } from '@nestjs/common';
import { NotFoundException } from '@nestjs/common';
import { DomainError, ErrorCode, IDEMPOTENCY_KEY_REUSED } from '@pp/contracts';
import { JsonLogger } from '@pp/platform';
import { ApiError } from './api-error';
import { ErrorResponseFilter } from './error-response.filter';

/** Runs the filter on `exception` and returns what it answered and logged. */
function answer(exception: unknown, url = '/v1/x') {
  const logged: Array<Record<string, unknown>> = [];
  const filter = new ErrorResponseFilter(new JsonLogger('gateway', 'debug', (line) => logged.push(JSON.parse(line))));
  const sent: { status?: number; headers: Record<string, string>; body?: unknown } = { headers: {} };
  const reply = {
    sent: false,
    headers: (h: Record<string, string>) => Object.assign(sent.headers, h),
    getHeader: (name: string) => sent.headers[name.toLowerCase()],
    header(name: string, value: string) {
      sent.headers[name.toLowerCase()] = value;
      return this;
    },
    code(status: number) {
      sent.status = status;
      return this;
    },
    type() {
      return this;
    },
    send(body: unknown) {
      sent.body = body;
    },
  };
  const request = { requestId: 'req-42', url, method: 'POST', headers: { 'x-request-id': 'req-42' } };
  const host = { switchToHttp: () => ({ getResponse: () => reply, getRequest: () => request }) } as unknown as ArgumentsHost;
  filter.catch(exception, host);
  return { ...sent, logged };
}

describe('ErrorResponseFilter', () => {
  it.each([
    ['an unavailable service', new DomainError(ErrorCode.ServiceUnavailable, 'ledger did not answer')],
    ['a concurrency conflict', new DomainError(ErrorCode.ConcurrencyConflict, 'Stream session-cs_1 is no longer at version 3')],
    ['an internal error', new Error('boom')],
  ])('given %s on a list searched by a payer’s name, then the log names the path, never the query', (_case, exception) => {
    const sent = answer(exception, '/v1/payments?reference=Jane%20Doe%20rent');
    expect(sent.logged).toHaveLength(1);
    expect(sent.logged[0]).toMatchObject({ path: '/v1/payments' });
    expect(JSON.stringify(sent.logged)).not.toContain('Jane');
  });

  it.each([
    [new DomainError(ErrorCode.ValidationFailed, 'Validation failed: amount is required'), 400, 'Validation failed: amount is required'],
    [new DomainError(ErrorCode.ValidationFailed, 'reference is too long'), 400, 'Validation failed: reference is too long'],
    // A service's word for a reused Idempotency-Key is the same as the gateway's own (PRODUCT-RULES §D3), unprefixed.
    [new DomainError(ErrorCode.ValidationFailed, IDEMPOTENCY_KEY_REUSED), 400, 'Idempotency-Key reused with different parameters'],
    [new DomainError(ErrorCode.NotFound, 'Checkout session not found'), 404, 'Checkout session not found'],
    [new DomainError(ErrorCode.Conflict, 'Reference already exists'), 409, 'Reference already exists'],
    [new DomainError(ErrorCode.Forbidden, 'Simulate payment requires a test key'), 403, 'Simulate payment requires a test key'],
    [new DomainError(ErrorCode.Unauthorized, 'Invalid or missing API key'), 401, 'Invalid or missing API key'],
    [new ApiError(429, 'Rate limit exceeded', { 'Retry-After': '1' }), 429, 'Rate limit exceeded'],
    [new NotFoundException('Cannot GET /v1/x'), 404, 'Not found'],
    [Object.assign(new Error('Request body is too large'), { statusCode: 413 }), 413, 'Request body too large (limit 1 MB)'],
  ])('answers %s with %i and exactly { error }', (exception, status, error) => {
    const sent = answer(exception);
    expect(sent.status).toBe(status);
    expect(sent.body).toEqual({ error });
    expect(sent.headers['x-request-id']).toBe('req-42');
  });

  it('given a command that lost every round to concurrent writes, then 409 with a fixed message and Retry-After, the ledger’s wording only logged', () => {
    const ledgerWording = 'Stream session-cs_1 is no longer at version 3';
    const sent = answer(new DomainError(ErrorCode.ConcurrencyConflict, ledgerWording, { stream_id: 'session-cs_1' }));
    expect(sent).toMatchObject({ status: 409, body: { error: 'Too many concurrent changes; retry' }, headers: { 'Retry-After': '1' } });
    expect(sent.logged).toEqual([expect.objectContaining({ level: 'warn', error: ledgerWording })]);
  });

  it('given a domain conflict, then 409 with its own message and no Retry-After', () => {
    const sent = answer(new DomainError(ErrorCode.Conflict, 'Reference already exists'));
    expect(sent).toMatchObject({ status: 409, body: { error: 'Reference already exists' } });
    expect(sent.headers['Retry-After']).toBeUndefined();
  });

  it('answers SERVICE_UNAVAILABLE 503 with Retry-After, without the internal detail', () => {
    const sent = answer(new DomainError(ErrorCode.ServiceUnavailable, 'No service is answering sessions.create.v1'));
    expect(sent).toMatchObject({ status: 503, body: { error: 'Service unavailable' }, headers: { 'Retry-After': '1' } });
  });

  it.each([
    ['an unexpected error', new TypeError('cannot read properties of undefined')],
    ['an INTERNAL domain error', new DomainError(ErrorCode.Internal, 'Internal error')],
  ])('answers %s 500 naming the request id and logs it with its stack', (_name, exception) => {
    const sent = answer(exception);
    expect(sent).toMatchObject({ status: 500, body: { error: 'Internal error; contact support with request id req-42' } });
    expect(sent.logged).toEqual([expect.objectContaining({ level: 'error', stack: expect.stringContaining('at ') })]);
  });
});
