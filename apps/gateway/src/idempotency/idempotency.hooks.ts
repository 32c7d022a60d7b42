import { Injectable } from '@nestjs/common';
import { bodyFingerprint, IDEMPOTENCY_KEY_REQUIRED, IDEMPOTENCY_KEY_REUSED, idempotencyKeyRefusal, merchantScopeKey } from '@pp/contracts';
import { IDEMPOTENCY_ANSWERS_NOT_KEPT, JsonLogger, redisUnavailable, ServiceMetrics, urlPath } from '@pp/platform';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '@pp/sdk';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Counter } from 'prom-client';
import { ApiError } from '../http/api-error';
import type { Principal } from '../identity/principal';
import { KeyRateLimiter, setRateLimitHeaders } from '../rate-limit/key-rate-limiter';
import { type BeginOutcome, IdempotencyStore } from './idempotency.store';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/**
 * Idempotency for every authenticated POST (PRODUCT-RULES §D3), as hooks: before
 * the handler, reserve the key or answer a replay (200, X-Cache-Lookup: HIT,
 * the original body); when the response is sent, keep it for 24 hours if it
 * succeeded or its change committed, or free the key so the client can retry
 * a failure. A POST the
 * access hook left to be counted with its reservation is counted as it is
 * answered when it never got that far.
 */
@Injectable()
export class IdempotencyHooks {
  private readonly notKept: Counter;

  constructor(
    private readonly store: IdempotencyStore,
    private readonly rateLimiter: KeyRateLimiter,
    private readonly logger: JsonLogger,
    metrics: ServiceMetrics,
  ) {
    this.notKept = metrics.counter(IDEMPOTENCY_ANSWERS_NOT_KEPT, { startAtZero: {} });
  }

  readonly reserve = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const scope = scopeOf(request.principal);
    if (request.method !== 'POST' || !scope) return undefined;
    const key = request.headers[IDEMPOTENCY_HEADER];
    const refusal = idempotencyKeyRefusal(key, MAX_IDEMPOTENCY_KEY_LENGTH);
    if (refusal || typeof key !== 'string') throw new ApiError(400, refusal ?? IDEMPOTENCY_KEY_REQUIRED);
    const route = `POST ${urlPath(request.url)}`;
    const begun = await this.begin(request, reply, scope, key, route);
    switch (begun.outcome) {
      case 'started':
        request.idempotency = begun.reservation;
        // Answered while Redis reserved the key (the answer deadline passed): no handler runs, and no answer will settle it.
        if (reply.sent) this.abandon(request);
        return undefined;
      case 'replay':
        // A success replays as 200 (PRODUCT-RULES §D3); a committed change answered with an error replays that error.
        return reply
          .code(begun.response.status >= 400 ? begun.response.status : 200)
          .header('X-Cache-Lookup', 'HIT')
          .type('application/json; charset=utf-8')
          .send(begun.response.body);
      case 'in_flight':
        throw new ApiError(409, 'A request with this Idempotency-Key is still in progress', { 'Retry-After': '1' });
      case 'mismatch':
        throw new ApiError(400, IDEMPOTENCY_KEY_REUSED);
    }
  };

  /** Reserves the key; for a request the access hook left uncounted, counts it against its key's rate limit in the same script first. */
  private async begin(request: FastifyRequest, reply: FastifyReply, scope: string, key: string, route: string): Promise<BeginOutcome> {
    const fingerprint = bodyFingerprint(request.body);
    const uncounted = request.uncounted;
    if (!uncounted) return this.store.begin(scope, key, fingerprint, route).catch(unavailable);
    request.uncounted = undefined;
    const window = this.rateLimiter.window(uncounted);
    const { count, begun } = await this.store.countAndBegin(window, scope, key, fingerprint, route).catch(unavailable);
    setRateLimitHeaders(reply, this.rateLimiter.judge(window, count)); // 429 over the limit, where the script reserved nothing
    return begun!;
  }

  /**
   * onSend: a POST refused before its reservation (415, a body that is not JSON, a missing Idempotency-Key, 403 ...)
   * was never counted, so a key could send any number of them; it is counted now, and over the limit answered 429.
   */
  readonly countRefused = async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const key = request.uncounted;
    if (!key) return payload;
    request.uncounted = undefined;
    try {
      setRateLimitHeaders(reply, await this.rateLimiter.consume(key));
      return payload;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // The refusal is already an answer; it becomes the 429, in the shape ErrorResponseFilter gives every error.
      reply.code(error.status).headers(error.headers).type('application/json; charset=utf-8');
      return JSON.stringify({ error: error.message });
    }
  };

  /**
   * Frees the key of a request answered without its handler's answer (AnswerDeadline's 503), which settle never sees.
   * The key is freed, as settle frees it for any 503, never kept with the 503: the work may still commit after it, and
   * a 503 replayed for 24 hours would hide that. A retry runs again and is answered what that work made: commands carry
   * the key to the service that records it with their change (ledger, webhooks), which answers the repeat with the
   * original. The gateway's own creations that show a secret once have no deadline (AnsweredWhenItsChangeEnds), so
   * none of them is abandoned. Holding the key until the late work ends would need its answer, which nothing sends any
   * more.
   */
  abandon(request: FastifyRequest): void {
    const reservation = request.idempotency;
    if (!reservation) return;
    request.idempotency = undefined;
    this.store.release(reservation).catch((error: unknown) => {
      // As in settle: the key stays reserved until its lock expires (IDEMPOTENCY_LOCK_SECONDS), then a retry runs again.
      this.logger.warn('could not free idempotency key', { error: error instanceof Error ? error.message : String(error) });
    });
  }

  readonly settle = async (request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    const reservation = request.idempotency;
    if (!reservation) return payload;
    request.idempotency = undefined;
    const succeeded = reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string';
    // A change that committed holds its key even when the answer is an error (its audit entry could not be stored):
    // freed, the key would let a retry make the change again (a second API key minted, say).
    const held = succeeded || (request.changeCommitted && typeof payload === 'string');
    try {
      // An answer whose service recorded the key is not kept past the scope's bytes: its retry is answered by that service.
      const response = { status: reply.statusCode, body: payload as string };
      if (!held) await this.store.release(reservation);
      else if ((await this.store.complete(reservation, response, request.keyRecordedByService)) === 'not_kept') this.notKept.inc();
    } catch (error) {
      // The response stands; a retry finds the key reserved until the lock expires, then runs again. What it repeats
      // must be safe to repeat: commands carrying the key are deduplicated by the service that records it with their
      // change (ledger, webhooks), and the gateway's own creations that show a secret once by the record they keep with
      // it in Postgres (creation-requests.ts), which refuses the repeat (409) rather than mint a second secret.
      this.logger.warn('could not settle idempotency key', { error: error instanceof Error ? error.message : String(error) });
    }
    return payload;
  };
}

/** Whose key space an Idempotency-Key lives in: the merchant and mode of the key, or the admin token. */
function scopeOf(principal: Principal): string | undefined {
  switch (principal.kind) {
    case 'api_key':
      return merchantScopeKey(principal);
    case 'admin':
      return `admin:${principal.token_id}`;
    default:
      return undefined;
  }
}

const unavailable = redisUnavailable('idempotency store');
