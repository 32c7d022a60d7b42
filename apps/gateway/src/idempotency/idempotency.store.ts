import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, REDIS } from '@pp/platform';
import type Redis from 'ioredis';
import type { GatewayConfig } from '../gateway.config';
import { redisKey } from '../redis-key';

/** Replays are served for 24 hours (SPEC §8). */
export const IDEMPOTENCY_RETENTION_SECONDS = 24 * 60 * 60;
/** How long a request may hold its key before another attempt may take over (a crashed gateway frees it this way). */
export const IDEMPOTENCY_LOCK_SECONDS = 60;

/** A request that holds its Idempotency-Key while it runs. */
export interface IdempotencyReservation {
  key: string;
  fingerprint: string;
  route: string;
  redisKey: string;
  owner: string;
}

export interface StoredResponse {
  status: number;
  body: string;
}

type Entry =
  | { state: 'running'; owner: string; fingerprint: string; route: string }
  | { state: 'done'; fingerprint: string; route: string; response: StoredResponse };

export type BeginOutcome =
  | { outcome: 'started'; reservation: IdempotencyReservation }
  | { outcome: 'replay'; response: StoredResponse }
  | { outcome: 'in_flight' }
  | { outcome: 'mismatch' };

/** Sets KEYS[1] to ARGV[2] for ARGV[3] seconds only while this request still holds it. */
const COMPLETE = `
local entry = redis.call('GET', KEYS[1])
if entry and cjson.decode(entry).owner == ARGV[1] then
  return redis.call('SET', KEYS[1], ARGV[2], 'EX', tonumber(ARGV[3]))
end
return false`;

/** Deletes KEYS[1] only while this request still holds it. */
const RELEASE = `
local entry = redis.call('GET', KEYS[1])
if entry and cjson.decode(entry).owner == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

/**
 * Idempotency-Key records in Redis (DESIGN.md §3): reserved with SET NX while
 * the first request runs, then replaced by its response for 24 hours. Keys
 * are scoped (merchant and mode, or the admin token) and stored hashed.
 */
@Injectable()
export class IdempotencyStore {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  async begin(scope: string, key: string, fingerprint: string, route: string): Promise<BeginOutcome> {
    const id = redisKey(this.config.PP_NAMESPACE, 'gateway', 'idem', scope, createHash('sha256').update(key).digest('hex'));
    for (let attempt = 0; attempt < 3; attempt++) {
      const owner = randomUUID();
      const running: Entry = { state: 'running', owner, fingerprint, route };
      const taken = await this.redis.set(id, JSON.stringify(running), 'EX', IDEMPOTENCY_LOCK_SECONDS, 'NX');
      if (taken === 'OK') return { outcome: 'started', reservation: { key, fingerprint, route, redisKey: id, owner } };
      const raw = await this.redis.get(id);
      if (raw === null) continue; // expired between the two calls: try to take it again
      const entry = JSON.parse(raw) as Entry;
      if (entry.fingerprint !== fingerprint || entry.route !== route) return { outcome: 'mismatch' };
      return entry.state === 'done' ? { outcome: 'replay', response: entry.response } : { outcome: 'in_flight' };
    }
    return { outcome: 'in_flight' };
  }

  async complete(reservation: IdempotencyReservation, response: StoredResponse): Promise<void> {
    const done: Entry = { state: 'done', fingerprint: reservation.fingerprint, route: reservation.route, response };
    await this.redis.eval(COMPLETE, 1, reservation.redisKey, reservation.owner, JSON.stringify(done), IDEMPOTENCY_RETENTION_SECONDS);
  }

  /** Frees the key after a failed attempt, so the client may retry it. */
  async release(reservation: IdempotencyReservation): Promise<void> {
    await this.redis.eval(RELEASE, 1, reservation.redisKey, reservation.owner);
  }
}
