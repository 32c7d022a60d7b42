import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, REDIS } from '@pp/platform';
import type Redis from 'ioredis';
import type { DashboardConfig } from '../dashboard.config';
import { RedisBudget } from '../http/redis-budget';

/** API keys a merchant may create per hour, both modes together. */
export const API_KEY_CREATIONS_PER_HOUR = 100;

export const TOO_MANY_KEY_CREATIONS = 'Too many API keys created; try again later';

/**
 * Every revocation reaches every gateway replica (a NOTIFY, and the key
 * dropped from each replica's key cache), and every new key is a row each
 * replica may look up: a user creating and revoking keys in a loop would
 * make that work without end. Creations, answered or refused alike, are
 * counted per merchant, which bounds revocations too: only an active key
 * sends a revocation's NOTIFY, and a mode holds at most
 * MAX_ACTIVE_KEYS_PER_MODE (25). Revocations themselves are never refused,
 * so a merchant can always revoke a leaked key, however many were made.
 * Replacing every active key of both modes still fits in the hour.
 */
@Injectable()
export class ApiKeyCreationsLimiter extends RedisBudget {
  constructor(@Inject(REDIS) redis: Redis, @Inject(CONFIG) config: DashboardConfig) {
    super(redis, config, 'api-key-creations', API_KEY_CREATIONS_PER_HOUR, 3600);
  }
}
