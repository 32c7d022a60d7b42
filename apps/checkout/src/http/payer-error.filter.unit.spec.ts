import type { ArgumentsHost } from '@nestjs/common';
import { DomainError, ErrorCode } from '@pp/contracts';
import type { JsonLogger } from '@pp/platform';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { CHECKOUT_UNAVAILABLE, PayerErrorFilter } from './payer-error.filter';

describe('payer error answers (PayerErrorFilter)', () => {
  const app = Fastify();
  const logger = { error: jest.fn(), warn: jest.fn() };
  const filter = new PayerErrorFilter(logger as unknown as JsonLogger);
  const failingWith =
    (error: DomainError) =>
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
  app.post('/unavailable/:id/simulate', failingWith(new DomainError(ErrorCode.ServiceUnavailable, busFailure)));
  app.get('/embed/sessions/:id', failingWith(new DomainError(ErrorCode.ServiceUnavailable, busFailure)));

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
  });

  it.each([
    ['GET', '/unavailable/cs_secret1/status', '/unavailable/:id/status'],
    ['POST', '/unavailable/cs_secret1/simulate', '/unavailable/:id/simulate'],
  ] as const)('given a service unavailable on the bus, when %s %s, then the payer gets a fixed 503 and the log gets the detail under the route', async (method, url, route) => {
    const response = await app.inject({ method, url });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: CHECKOUT_UNAVAILABLE });
    expect(response.body).not.toContain('checkout-page');
    expect(logger.warn).toHaveBeenCalledWith('service unavailable', { error: busFailure, route, method });
    expect(JSON.stringify(logger.warn.mock.calls)).not.toContain('cs_secret1');
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('given the embedded frame’s session page fails, then its page may be framed by the parent it names and tells it the error', async () => {
    const response = await app.inject({ method: 'GET', url: '/embed/sessions/cs_1?parent_origin=https%3A%2F%2Fshop.example&lang=en' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-security-policy']).toContain("frame-ancestors https://shop.example");
    expect(response.body).toContain('data-mode="embed-final"');
    expect(response.body).toContain('data-final-status="ERROR"');
    expect(response.body).toContain('data-error-text="Checkout is temporarily unavailable"');
  });

  it('given that page without a parent origin it can read, then it is not framed', async () => {
    const response = await app.inject({ method: 'GET', url: '/embed/sessions/cs_1?parent_origin=javascript%3Aalert(1)' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-security-policy']).toBeUndefined();
    expect(response.body).toContain('data-mode="final"');
  });
});
