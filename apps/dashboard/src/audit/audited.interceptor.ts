import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AuditAction } from '@pp/contracts';
import type { FastifyReply } from 'fastify';
import { catchError, from, type Observable, mergeMap } from 'rxjs';
import type { SignedInRequest } from '../auth/access.guard';
import { requestedLivemode } from '../auth/requested-mode';
import type { AuditFact } from './audit-trail';
import { AuditTrail } from './audit-trail';

const AUDITED = 'dashboard:audited';

/** What a route's answer and request say about the change: its target, the merchant and mode when not the user's own, a detail. */
type Describe<R> = (result: R, request: SignedInRequest) => Omit<AuditFact, 'action'>;

interface AuditRule {
  action: AuditAction;
  describe: Describe<unknown>;
}

/** The route's `:id` is the target. */
export const targetParam = (_result: unknown, request: SignedInRequest) => ({ target_id: (request.params as Record<string, string>).id ?? null });
/** The answer's `id` is the target (a created resource). */
export const targetResult = (result: { id: string }) => ({ target_id: result.id });

/**
 * Records the route's action in the audit trail once it succeeded, before the
 * answer is sent (AuditInterceptor): `@Audited('api_key.revoked', targetParam)`.
 * Merchant routes record the mode of `?mode=`.
 */
export const Audited = <R>(action: AuditAction, describe: Describe<R>) => SetMetadata(AUDITED, { action, describe } as AuditRule);

const COMMITTED = Symbol('audit: the change committed');

/**
 * Says the route's change has committed, with what describes it: if the
 * route then fails (ending the user's sessions, say, when Redis does not
 * answer), the change stands, so the interceptor records it before the error
 * is answered.
 */
export function changeCommitted(request: SignedInRequest, result: unknown): void {
  (request as SignedInRequest & { [COMMITTED]?: { result: unknown } })[COMMITTED] = { result };
}

@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly trail: AuditTrail,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const rule = this.reflector.get<AuditRule | undefined>(AUDITED, context.getHandler());
    if (!rule) return next.handle();
    const request = context.switchToHttp().getRequest<SignedInRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const principal = request.dashboard!.session.principal;
    // Read before the handler runs: a ?mode refused (400) after a change committed would leave the change unaudited.
    const mode = principal.merchant_id ? { livemode: requestedLivemode(request.query) } : {};
    let recording = false;
    const record = async (result: unknown) => {
      // Once: an entry whose recording failed (AuditTrail retries it, then logs it whole) is not recorded again as the error passes.
      if (recording) return;
      recording = true;
      await this.trail.record(request, reply, principal, { action: rule.action, ...mode, ...rule.describe(result, request) });
    };
    return next.handle().pipe(
      mergeMap((result: unknown) =>
        from(
          (async () => {
            // A handler that answered an error itself (a 429 it sent) changed nothing: nothing to record.
            if (reply.sent || reply.statusCode >= 400) return result;
            await record(result);
            return result;
          })(),
        ),
      ),
      catchError((error: unknown) =>
        from(
          (async () => {
            const committed = (request as SignedInRequest & { [COMMITTED]?: { result: unknown } })[COMMITTED];
            if (committed) await record(committed.result);
            throw error;
          })(),
        ),
      ),
    );
  }
}
