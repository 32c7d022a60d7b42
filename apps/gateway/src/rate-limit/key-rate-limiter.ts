import type { KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { LruMap } from '@pp/kernel';
import { CONFIG, deriveKey, JsonLogger, keyedDigest, LuaScript, REDIS } from '@pp/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type Redis from 'ioredis';
import type { GatewayConfig } from '../gateway.config';
import { ApiError } from '../http/api-error';
import type { KeyPrincipal } from '../identity/principal';
import { redisKey } from '../redis-key';

export interface RateLimitOutcome {
  limit: number;
  remaining: number;
}

/** Where a key's requests of the current second are counted, and how many it may make. */
export interface RateWindow {
  counter: string;
  limit: number;
}

/** A count as Redis answers it: requests so far in the window, and the milliseconds left of it. */
export type WindowCount = readonly [count: number, leftMs: number];

const WINDOW_MS = 1000;

/** Keys whose counter names a gateway remembers: a few hundred bytes each, and a forgotten one is computed again. */
const COUNTER_NAMES_REMEMBERED = 1024;

/**
 * Lua that counts one request in the window KEYS[1] and leaves `count` and
 * `left` (ms) in locals: the first request of a window starts it, so a
 * window is one second from its first request (a fixed window per key).
 * Shared with the Idempotency-Key reservation, which counts in the same
 * script (idempotency.store.ts).
 */
export const COUNT_REQUEST_LUA = `
local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ${WINDOW_MS})
  left = ${WINDOW_MS}
end`;

const COUNT_REQUEST = new LuaScript(`${COUNT_REQUEST_LUA}
return {count, left}`);

/**
 * COUNT_REQUEST unless KEYS[2] stands: it marks a request of the same thing counted, within the key's limit ARGV[2],
 * less than ARGV[1] ms ago. A request refused over the limit leaves no mark, so its retry is counted again.
 */
const COUNT_FIRST_REQUEST = new LuaScript(`if redis.call('EXISTS', KEYS[2]) == 1 then return false end
${COUNT_REQUEST_LUA}
if count <= tonumber(ARGV[2]) then redis.call('SET', KEYS[2], '1', 'PX', ARGV[1]) end
return {count, left}`);

/**
 * A POST whose body is at most this long is counted together with its
 * Idempotency-Key reservation, after the body is read: one Redis round trip
 * instead of two. A longer body (or one of unknown length) is counted before
 * it is read, so a key over its limit never has a large body parsed.
 */
export const MAX_BODY_COUNTED_WITH_RESERVATION = 16 * 1024;

/** Whether the access hook leaves this request's count to the Idempotency-Key reservation. */
export function countedWithReservation(request: FastifyRequest): boolean {
  if (request.method !== 'POST') return false;
  const length = Number(request.headers['content-length'] ?? Number.NaN);
  return request.headers['transfer-encoding'] === undefined && length >= 0 && length <= MAX_BODY_COUNTED_WITH_RESERVATION;
}

/**
 * Requests per second per API key, counted in Redis so every gateway replica
 * shares one budget. A key's own limit wins over its mode's default.
 */
@Injectable()
export class KeyRateLimiter {
  /** Counters are named by an HMAC of what they count (a key id today; client addresses or secrets must not show in Redis either). */
  private readonly nameKey: KeyObject;
  /**
   * Each key's counter name, by key id: the HMAC depends on nothing else, and
   * computing it for every request cost 4.5-5.4 µs against 0.3 for the
   * lookup (1.6 % of the gateway's busy samples under create-session load;
   * docs/PERFORMANCE.md).
   */
  private readonly counterNames = new LruMap<string, string>(COUNTER_NAMES_REMEMBERED);

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    private readonly logger: JsonLogger,
  ) {
    this.nameKey = deriveKey(config.SERVER_SECRET, 'gateway/rate-limit/name');
  }

  limitFor(key: KeyPrincipal): number {
    return key.rate_limit_per_second ?? (key.livemode ? this.config.RATE_LIMIT_LIVE_PER_SECOND : this.config.RATE_LIMIT_TEST_PER_SECOND);
  }

  window(key: KeyPrincipal): RateWindow {
    const limit = this.limitFor(key);
    const name = this.counterNames.getOrSet(key.key_id, (keyId) => keyedDigest(this.nameKey, 'key', keyId));
    return { counter: redisKey(this.config.PP_NAMESPACE, 'gateway', 'ratelimit', String(limit), name), limit };
  }

  /** Counts one request; throws 429 with Retry-After when the key's budget for this second is spent. */
  async consume(key: KeyPrincipal): Promise<RateLimitOutcome> {
    const window = this.window(key);
    return this.outcome(window, (await this.count(COUNT_REQUEST, [window.counter], [])) ?? undefined);
  }

  /**
   * Counts one request as consume does, unless this key counted a request for `what` (one session opened, say)
   * within `periodMs` and within its limit: then nothing is counted, and there is no outcome to answer.
   */
  async consumeFirstOf(key: KeyPrincipal, what: string, periodMs: number): Promise<RateLimitOutcome | undefined> {
    const window = this.window(key);
    const counted = await this.count(COUNT_FIRST_REQUEST, [window.counter, `${window.counter}:first:${what}`], [periodMs, window.limit]);
    return counted === null ? undefined : this.outcome(window, counted);
  }

  /** A count's outcome; the whole budget when Redis did not count (the request is served unthrottled). */
  private outcome(window: RateWindow, counted: WindowCount | undefined): RateLimitOutcome {
    return counted ? this.judge(window, counted) : { limit: window.limit, remaining: window.limit };
  }

  /** The script's count (null: it counted nothing); undefined when Redis failed, and the request is served unthrottled. */
  private async count(script: LuaScript, keys: string[], args: number[]): Promise<WindowCount | null | undefined> {
    try {
      return (await script.run(this.redis, keys, args)) as WindowCount | null;
    } catch (error) {
      // Redis trouble must not take the API down with it.
      this.logger.warn('rate limiter unavailable, request not throttled', { error: error instanceof Error ? error.message : String(error) });
      return undefined;
    }
  }

  /** The outcome of a count: the budget left, or 429 with Retry-After once it is spent. */
  judge({ limit }: RateWindow, [count, leftMs]: WindowCount): RateLimitOutcome {
    if (count > limit) {
      throw new ApiError(429, 'Rate limit exceeded', {
        'Retry-After': String(Math.max(1, Math.ceil(leftMs / 1000))),
        'X-RateLimit-Limit': String(limit),
        'X-RateLimit-Remaining': '0',
      });
    }
    return { limit, remaining: limit - count };
  }
}

/** The budget on the response, as every counted request shows it. */
export function setRateLimitHeaders(reply: FastifyReply, { limit, remaining }: RateLimitOutcome): void {
  reply.header('X-RateLimit-Limit', String(limit)).header('X-RateLimit-Remaining', String(remaining));
}
