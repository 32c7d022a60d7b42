import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { IdempotencyToken, MerchantScope } from '@pp/contracts';
import type { FastifyRequest } from 'fastify';

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
