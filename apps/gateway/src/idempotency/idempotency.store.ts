import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { IDEMPOTENCY_RETENTION_SECONDS } from '@pp/contracts';
import { CONFIG, LuaScript, REDIS } from '@pp/platform';
import type Redis from 'ioredis';
import type { GatewayConfig } from '../gateway.config';
import { COUNT_REQUEST_LUA, type RateWindow, type WindowCount } from '../rate-limit/key-rate-limiter';
import { type IdempotencyEntryKeys, IdempotencyKeys, type StoredResponse } from './idempotency.keys';

export type { StoredResponse } from './idempotency.keys';

/** How long a request may hold its key before another attempt may take over (a crashed gateway frees it this way). */
export const IDEMPOTENCY_LOCK_SECONDS = 60;

/**
 * A request that holds its Idempotency-Key while it runs; key and fingerprint travel with its command
 * (IdempotencyToken), scope, key and check with a creation that records them (creation-requests.ts).
 */
export interface IdempotencyReservation {
  scope: string;
  key: string;
  fingerprint: string;
  entry: IdempotencyEntryKeys;
  check: string;
  owner: string;
}

/** What Redis holds: `check` is the keyed fingerprint of route and body, `response` the sealed response. */
type Entry = { state: 'running'; owner: string; check: string } | { state: 'done'; check: string; response: string };

export type BeginOutcome =
  | { outcome: 'started'; reservation: IdempotencyReservation }
  | { outcome: 'replay'; response: StoredResponse }
  | { outcome: 'in_flight' }
  | { outcome: 'mismatch' };

/** What begin found, and, when the request was counted with it, its count (over the limit: nothing was reserved). */
export type CountedBegin = { count: WindowCount; begun?: BeginOutcome };

/** Sets KEYS[1] to ARGV[1] for ARGV[2] seconds unless it exists; answers 1, or 0 and what holds it. */
const RESERVE = new LuaScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2], 'NX') then return {1} end
return {0, redis.call('GET', KEYS[1])}`);

/** The same for KEYS[2], after counting the request in its rate-limit window KEYS[1]; over the limit ARGV[3] it reserves nothing. */
const COUNT_AND_RESERVE = new LuaScript(`${COUNT_REQUEST_LUA}
if count > tonumber(ARGV[3]) then return {count, left} end
if redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[2], 'NX') then return {count, left, 1} end
return {count, left, 0, redis.call('GET', KEYS[2])}`);

/**
 * Sets KEYS[1] to ARGV[2] for ARGV[3] seconds only while this request still holds it. With a bound ARGV[4] (-1: none),
 * only while its scope has kept no more than that many bytes under a bound (counted in KEYS[2], which lasts ARGV[3]
 * seconds from its first byte); past that, frees it. Answers 1 kept, 0 freed, -1 no longer this request's.
 */
const COMPLETE = new LuaScript(`
local entry = redis.call('GET', KEYS[1])
if not entry or cjson.decode(entry).owner ~= ARGV[1] then return -1 end
local bound = tonumber(ARGV[4])
if bound >= 0 then
  local size = string.len(ARGV[2])
  if tonumber(redis.call('GET', KEYS[2]) or '0') + size > bound then
    redis.call('DEL', KEYS[1])
    return 0
  end
  if redis.call('INCRBY', KEYS[2], size) == size then redis.call('EXPIRE', KEYS[2], ARGV[3]) end
end
redis.call('SET', KEYS[1], ARGV[2], 'EX', tonumber(ARGV[3]))
return 1`);

/** What complete did with the answer: kept for replays, not kept (its scope kept its bytes: the key is freed), or neither (another request holds the key now). */
export type Completion = 'kept' | 'not_kept' | 'lost';
const COMPLETIONS: Record<number, Completion> = { 1: 'kept', 0: 'not_kept', [-1]: 'lost' };

/** Deletes KEYS[1] only while this request still holds it. */
const RELEASE = new LuaScript(`
local entry = redis.call('GET', KEYS[1])
if entry and cjson.decode(entry).owner == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`);

/**
 * Idempotency-Key records in Redis (PRODUCT-RULES §D3): reserved with SET NX while
 * the first request runs, then replaced by its sealed response for 24 hours.
 * Keys are scoped (merchant and mode, or the admin token); names and contents
 * are keyed and sealed by IdempotencyKeys, so Redis holds no secret.
 */
@Injectable()
export class IdempotencyStore {
  private readonly keptBytesPerScope: number;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: IdempotencyKeys,
    @Inject(CONFIG) config: GatewayConfig,
  ) {
    this.keptBytesPerScope = config.IDEMPOTENCY_KEPT_BYTES_PER_SCOPE;
  }

  /** Reserves the key for this request, or answers what holds it: one script, so nothing can change between the two. */
  async begin(scope: string, key: string, fingerprint: string, route: string): Promise<BeginOutcome> {
    const { entry, check, running } = this.attempt(scope, key, fingerprint, route);
    const [taken, held] = (await RESERVE.run(this.redis, [entry.redisKey], [JSON.stringify(running), IDEMPOTENCY_LOCK_SECONDS])) as [number, string?];
    return this.outcome({ scope, key, fingerprint, entry, check, owner: running.owner }, taken, held);
  }

  /** begin, with the request counted against its key's rate limit in the same round trip; over the limit, nothing is reserved. */
  async countAndBegin(window: RateWindow, scope: string, key: string, fingerprint: string, route: string): Promise<CountedBegin> {
    const { entry, check, running } = this.attempt(scope, key, fingerprint, route);
    const [count, leftMs, taken, held] = (await COUNT_AND_RESERVE.run(
      this.redis,
      [window.counter, entry.redisKey],
      [JSON.stringify(running), IDEMPOTENCY_LOCK_SECONDS, window.limit],
    )) as [number, number, number?, string?];
    if (taken === undefined) return { count: [count, leftMs] };
    return { count: [count, leftMs], begun: this.outcome({ scope, key, fingerprint, entry, check, owner: running.owner }, taken, held) };
  }

  private attempt(scope: string, key: string, fingerprint: string, route: string) {
    const entry = this.keys.entry(scope, key);
    const check = this.keys.check(entry, route, fingerprint);
    const running = { state: 'running', owner: randomUUID(), check } satisfies Entry;
    return { entry, check, running };
  }

  private outcome(reservation: IdempotencyReservation, taken: number, held: string | undefined): BeginOutcome {
    if (taken === 1) return { outcome: 'started', reservation };
    if (held === undefined) return { outcome: 'in_flight' }; // cannot happen: the script read it while it existed
    const found = JSON.parse(held) as Entry;
    if (found.check !== reservation.check) return { outcome: 'mismatch' };
    return found.state === 'done' ? { outcome: 'replay', response: this.keys.openResponse(reservation.entry, found.response) } : { outcome: 'in_flight' };
  }

  /**
   * Keeps the answer for replays for 24 hours. One whose service recorded the key with its change (`recordedByService`)
   * is kept only while its scope has kept fewer than IDEMPOTENCY_KEPT_BYTES_PER_SCOPE bytes of such answers: past that,
   * the key is freed, and a retry runs again, answered by that service. The others (a stage's change, an admin's) are
   * always kept: nothing else would answer their retry as the first time.
   */
  async complete(reservation: IdempotencyReservation, response: StoredResponse, recordedByService: boolean): Promise<Completion> {
    const { scope, entry, check, owner } = reservation;
    const done: Entry = { state: 'done', check, response: this.keys.sealResponse(entry, response) };
    const answer = (await COMPLETE.run(
      this.redis,
      [entry.redisKey, this.keys.keptBytes(scope)],
      [owner, JSON.stringify(done), IDEMPOTENCY_RETENTION_SECONDS, recordedByService ? this.keptBytesPerScope : -1],
    )) as number;
    return COMPLETIONS[answer] ?? 'lost';
  }

  /** Frees the key after a failed attempt, so the client may retry it. */
  async release(reservation: IdempotencyReservation): Promise<void> {
    await RELEASE.run(this.redis, [reservation.entry.redisKey], [reservation.owner]);
  }
}
