import type { ArgumentsHost } from '@nestjs/common';
import { DomainError, ErrorCode } from '@pp/contracts';
import type { JsonLogger } from '@pp/platform';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { checkoutUnavailable, PayerErrorFilter } from './payer-error.filter';

describe('payer error answers (PayerErrorFilter)', () => {
  const app = Fastify();
  const logger = { error: jest.fn(), warn: jest.fn() };
  const filter = new PayerErrorFilter(logger as unknown as JsonLogger);
  const failingWith =
    (error: unknown) =>
    (request: FastifyRequest, reply: FastifyReply): void => {
      const host = { switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }) } as unknown as ArgumentsHost;
      filter.catch(error, host);
    };
  const notFound = failingWith(new DomainError(ErrorCode.NotFound, 'No such checkout session'));
  app.get('/sessions/:id/status', notFound);
  app.get('/sessions/:id', notFound);
  // As the bus client words it (libs/platform/src/nats/bus-client.ts): an internal subject the payer must not see.
  const busFailure = 'No service is answering checkout-page.session.v1';
  app.get('/unavailable/:id/status', failingWith(new DomainError(ErrorCode.ServiceUnavailable, busFailure)));
  app.post('/embed/session', failingWith(new DomainError(ErrorCode.ServiceUnavailable, busFailure)));
  app.get('/embed/sessions/:id', failingWith(new DomainError(ErrorCode.ServiceUnavailable, busFailure)));
  app.get('/broken/:id', failingWith(new TypeError('Cannot read properties of undefined (reading merchant_id)')));

  beforeEach(() => jest.clearAllMocks());
  afterAll(() => app.close());

  it.each(['/sessions/cs_1/status', '/sessions/cs_1/st%61tus', '/sessions/cs_1/%73tatus?lang=fr'])(
    'given the scripts’ status request spelled %s, then the error is JSON',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toEqual({ error: 'No such checkout session' });
    },
  );

  it('given a payer’s page request, then the error is a page', async () => {
    const response = await app.inject({ method: 'GET', url: '/sessions/cs_1' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('Checkout not found');
    expect(response.body).not.toContain('request id'); // a refusal, not a failure of ours: nothing to quote to support
  });

  it.each([
    ['GET', '/unavailable/cs_secret1/status', '/unavailable/:id/status'],
    ['POST', '/embed/session', '/embed/session'],
  ] as const)('given a service unavailable on the bus, when %s %s, then the payer gets a fixed 503 naming the request id and the log gets the detail under the route', async (method, url, route) => {
    const response = await app.inject({ method, url, headers: { 'x-request-id': 'req-503.a' } });
    expect(response.statusCode).toBe(503);
    expect(response.headers['x-request-id']).toBe('req-503.a');
    expect(response.json()).toEqual({ error: checkoutUnavailable('req-503.a') });
    expect(response.json().error).toBe('Checkout is temporarily unavailable; try again in a moment. If it persists, contact support with request id req-503.a');
    expect(response.body).not.toContain('checkout-page');
    expect(logger.warn).toHaveBeenCalledWith('service unavailable', { error: busFailure, route, method });
    expect(JSON.stringify(logger.warn.mock.calls)).not.toContain('cs_secret1');
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('given an unexpected error on a page, then the payer gets a 500 page naming the request id (one of its own when the caller sent none), and nothing of the error', async () => {
    const response = await app.inject({ method: 'GET', url: '/broken/cs_1?lang=fr' });
    expect(response.statusCode).toBe(500);
    const requestId = String(response.headers['x-request-id']);
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain(`<p class="request-id">Si le problème persiste, communiquez avec le soutien en indiquant l’identifiant de requête ${requestId}.</p>`);
    expect(response.body).not.toContain('merchant_id');
    expect(logger.error).toHaveBeenCalledTimes(1);
    // Logged under the route: the session id in the URL is the page's bearer credential.
    expect(logger.error).toHaveBeenCalledWith(expect.any(TypeError), { route: '/broken/:id', method: 'GET' });
    expect(JSON.stringify(logger.error.mock.calls)).not.toContain('cs_1');
  });

  it('given a request id with markup, then the page does not carry it: a caller’s id is kept only when plain (requestIdOf)', async () => {
    const response = await app.inject({ method: 'GET', url: '/broken/cs_1', headers: { 'x-request-id': '<img src=x onerror=alert(1)>' } });
    expect(response.statusCode).toBe(500);
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.body).not.toContain('<img');
    expect(response.body).toContain(`request id ${String(response.headers['x-request-id'])}.`);
  });

  it('given the embedded frame’s session page fails, then its page may be framed by the parent it names and tells it the error', async () => {
    const response = await app.inject({ method: 'GET', url: '/embed/sessions/cs_1?parent_origin=https%3A%2F%2Fshop.example&lang=en', headers: { 'x-request-id': 'req-frame-1' } });
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-security-policy']).toContain("frame-ancestors https://shop.example");
    expect(response.body).toContain('data-mode="embed-final"');
    expect(response.body).toContain('data-final-status="ERROR"');
    // What the merchant's onError receives names the request id too.
    expect(response.body).toContain('data-error-text="Checkout is temporarily unavailable. If it persists, contact support with request id req-frame-1."');
    expect(response.body).toContain('<p class="request-id">If it persists, contact support with request id req-frame-1.</p>');
  });

  it('given that page without a parent origin it can read, then it is not framed', async () => {
    const response = await app.inject({ method: 'GET', url: '/embed/sessions/cs_1?parent_origin=javascript%3Aalert(1)' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-security-policy']).toBeUndefined();
    expect(response.body).toContain('data-mode="final"');
  });
});
