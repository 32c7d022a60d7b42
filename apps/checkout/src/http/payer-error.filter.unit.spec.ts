import type { ArgumentsHost } from '@nestjs/common';
import { DomainError, ErrorCode } from '@pp/contracts';
import type { JsonLogger } from '@pp/platform';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { PayerErrorFilter } from './payer-error.filter';

describe('payer error answers (PayerErrorFilter)', () => {
  const app = Fastify();
  const filter = new PayerErrorFilter({ error: () => undefined } as unknown as JsonLogger);
  const notFound = (request: FastifyRequest, reply: FastifyReply): void => {
    const host = { switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }) } as unknown as ArgumentsHost;
    filter.catch(new DomainError(ErrorCode.NotFound, 'No such checkout session'), host);
  };
  app.get('/sessions/:id/status', notFound);
  app.get('/sessions/:id', notFound);

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
});
