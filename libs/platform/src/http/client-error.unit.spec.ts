import { BadRequestException, NotFoundException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { describeClientError } from './client-error';

/** A request to `url` on a server whose only route is POST /v1/things. */
const request = (method: string, url: string) =>
  ({
    method,
    url,
    server: { findRoute: ({ method: m, url: u }: { method: string; url: string }) => (m === 'POST' && u === '/v1/things' ? {} : null) },
  }) as unknown as FastifyRequest;

describe('describeClientError', () => {
  it.each([
    ['an unknown path', new NotFoundException(), request('GET', '/v1/nowhere'), { status: 404, message: 'Not found' }],
    ['a known path with another method', new NotFoundException(), request('DELETE', '/v1/things?x=1'), { status: 405, message: 'Method not allowed', headers: { Allow: 'POST' } }],
    ['a handler’s own 404 on its route', new NotFoundException(), request('POST', '/v1/things'), { status: 404, message: 'Not found' }],
    ['Fastify’s body limit', Object.assign(new Error('Request body is too large'), { statusCode: 413 }), request('POST', '/v1/things'), { status: 413, message: 'Request body too large' }],
    ['Fastify’s media type refusal', Object.assign(new Error('Unsupported Media Type'), { statusCode: 415 }), request('POST', '/v1/things'), { status: 415, message: 'Unsupported Content-Type' }],
    ['a bad request', new BadRequestException('Body cannot be empty'), request('POST', '/v1/things'), { status: 400, message: 'Validation failed: Body cannot be empty' }],
  ])('given %s, when described, then it is answered as such', (_case, exception, req, answer) => {
    expect(describeClientError(exception, req)).toEqual(answer);
  });

  it('given a 413 and the app’s own wording, when described, then that wording is used', () => {
    const tooLarge = Object.assign(new Error('too large'), { statusCode: 413 });
    expect(describeClientError(tooLarge, request('POST', '/v1/things'), { 413: 'Request body too large (limit 1 MB)' })?.message).toBe('Request body too large (limit 1 MB)');
  });

  it.each([
    ['an unexpected error', new TypeError('x is undefined')],
    ['a server-side status', Object.assign(new Error('boom'), { statusCode: 502 })],
  ])('given %s, when described, then it is left to the app (undefined)', (_case, exception) => {
    expect(describeClientError(exception, request('GET', '/'))).toBeUndefined();
  });
});
