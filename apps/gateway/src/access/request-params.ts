import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { IdempotencyToken, MerchantScope } from '@pp/contracts';
import type { FastifyRequest } from 'fastify';
import type { CreationRequest } from '../idempotency/creation-request.repository';

const requestOf = (ctx: ExecutionContext) => ctx.switchToHttp().getRequest<FastifyRequest>();

/** The merchant and mode of the API key that made the request (SecretKeyRoute / PublishableKeyRoute handlers). */
export const KeyScope = createParamDecorator((_: unknown, ctx: ExecutionContext): MerchantScope => {
  const principal = requestOf(ctx).principal;
  if (principal.kind !== 'api_key') throw new Error('KeyScope used on a route that is not authenticated by an API key');
  return { merchant_id: principal.merchant_id, livemode: principal.livemode };
});

/** The request's Idempotency-Key and body fingerprint, to travel with the command (POST handlers). */
export const Idempotency = createParamDecorator((_: unknown, ctx: ExecutionContext): IdempotencyToken => {
  const reservation = requestOf(ctx).idempotency;
  if (!reservation) throw new Error('Idempotency used on a route without an idempotency reservation');
  return { key: reservation.key, fingerprint: reservation.fingerprint };
});

/** The request's Idempotency-Key as a creation records it with what it makes (creation-requests.ts): scope, key, keyed route and body. */
export const CreationKey = createParamDecorator((_: unknown, ctx: ExecutionContext): CreationRequest => {
  const reservation = requestOf(ctx).idempotency;
  if (!reservation) throw new Error('CreationKey used on a route without an idempotency reservation');
  return { scope: reservation.scope, key: reservation.key, keyed_fingerprint: reservation.check };
});
