import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { DomainError, ErrorCode, REFUND_ID_PATTERN } from '@pp/contracts';
import type { FastifyRequest } from 'fastify';

/** Who acted, as recorded on the refund: the API key's id, or the admin token's. */
export const Actor = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const principal = ctx.switchToHttp().getRequest<FastifyRequest>().principal;
  if (principal.kind === 'api_key') return principal.key_id;
  if (principal.kind === 'admin') return `admin:${principal.token_id}`;
  throw new Error('Actor used on a route without a key or admin credential');
});

/** A refund id that cannot exist is simply not found (no bus call). */
export function refundId(id: string): string {
  if (!REFUND_ID_PATTERN.test(id)) throw new DomainError(ErrorCode.NotFound, 'Refund not found');
  return id;
}
