import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, LuaScript, REDIS } from '@pp/platform';
import type Redis from 'ioredis';
import type { GatewayConfig } from '../gateway.config';
import { type IdempotencyEntryKeys, IdempotencyKeys, type StoredResponse } from './idempotency.keys';

export type { StoredResponse } from './idempotency.keys';

/** Replays are served for 24 hours (PRODUCT-RULES §8). */
export const IDEMPOTENCY_RETENTION_SECONDS = 24 * 60 * 60;
/** How long a request may hold its key before another attempt may take over (a crashed gateway frees it this way). */
export const IDEMPOTENCY_LOCK_SECONDS = 60;

/** A request that holds its Idempotency-Key while it runs; key and fingerprint travel with its command (IdempotencyToken). */
export interface IdempotencyReservation {
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

/** Sets KEYS[1] to ARGV[2] for ARGV[3] seconds only while this request still holds it. */
const COMPLETE = new LuaScript(`
local entry = redis.call('GET', KEYS[1])
if entry and cjson.decode(entry).owner == ARGV[1] then
  return redis.call('SET', KEYS[1], ARGV[2], 'EX', tonumber(ARGV[3]))
end
return false`);

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
  private readonly keys: IdempotencyKeys;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) config: GatewayConfig,
  ) {
    this.keys = new IdempotencyKeys(config.SERVER_SECRET, config.PP_NAMESPACE);
  }

  async begin(scope: string, key: string, fingerprint: string, route: string): Promise<BeginOutcome> {
    const entry = this.keys.entry(scope, key);
    const check = this.keys.check(entry, route, fingerprint);
    for (let attempt = 0; attempt < 3; attempt++) {
      const owner = randomUUID();
      const running: Entry = { state: 'running', owner, check };
      const taken = await this.redis.set(entry.redisKey, JSON.stringify(running), 'EX', IDEMPOTENCY_LOCK_SECONDS, 'NX');
      if (taken === 'OK') return { outcome: 'started', reservation: { key, fingerprint, entry, check, owner } };
      const raw = await this.redis.get(entry.redisKey);
      if (raw === null) continue; // expired between the two calls: try to take it again
      const found = JSON.parse(raw) as Entry;
      if (found.check !== check) return { outcome: 'mismatch' };
      return found.state === 'done' ? { outcome: 'replay', response: this.keys.openResponse(entry, found.response) } : { outcome: 'in_flight' };
    }
    return { outcome: 'in_flight' };
  }

  async complete(reservation: IdempotencyReservation, response: StoredResponse): Promise<void> {
    const { entry, check, owner } = reservation;
    const done: Entry = { state: 'done', check, response: this.keys.sealResponse(entry, response) };
    await COMPLETE.run(this.redis, [entry.redisKey], [owner, JSON.stringify(done), IDEMPOTENCY_RETENTION_SECONDS]);
  }

  /** Frees the key after a failed attempt, so the client may retry it. */
  async release(reservation: IdempotencyReservation): Promise<void> {
    await RELEASE.run(this.redis, [reservation.entry.redisKey], [reservation.owner]);
  }
}
