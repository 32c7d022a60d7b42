import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { bodyFingerprint, DomainError, ErrorCode, type IdempotencyToken } from '@pp/contracts';
import type { SignedInRequest } from '../auth/access.guard';
import { dashboardIdempotencyKeyRefusal, userIdempotencyKey } from './idempotency-key.policy';

/**
 * The request's Idempotency-Key (required: 400 without it) and its body's fingerprint, computed as the gateway
 * computes it, to travel with the command: the service records both with what it makes, so a retry of the same
 * action is answered as a repeat (idempotency-key.policy.ts scopes the key to the signed-in user).
 */
export const Idempotency = createParamDecorator((_data: unknown, context: ExecutionContext): IdempotencyToken => idempotencyOf(context.switchToHttp().getRequest<SignedInRequest>()));

/**
 * As Idempotency, on a route whose interface DESIGN fixes without the header (the refund request, the sandbox
 * simulation): a request without one goes ahead unrecorded, as a script written to that interface sends it (a retry
 * of it is refused as a second refund, or is another simulated payment); one with a malformed key is refused, as on
 * every route.
 */
export const OptionalIdempotency = createParamDecorator((_data: unknown, context: ExecutionContext): IdempotencyToken | undefined => {
  const request = context.switchToHttp().getRequest<SignedInRequest>();
  return request.headers['idempotency-key'] === undefined ? undefined : idempotencyOf(request);
});

function idempotencyOf(request: SignedInRequest): IdempotencyToken {
  const user = request.dashboard?.session.principal;
  if (!user) throw new Error('Idempotency read on a route without a session');
  const header = request.headers['idempotency-key'];
  const refusal = dashboardIdempotencyKeyRefusal(header);
  if (refusal) throw new DomainError(ErrorCode.ValidationFailed, refusal);
  return { key: userIdempotencyKey(user.id, header as string), fingerprint: bodyFingerprint(request.body) };
}
