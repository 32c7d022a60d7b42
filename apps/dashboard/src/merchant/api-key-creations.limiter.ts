import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, REDIS } from '@pp/platform';
import type Redis from 'ioredis';
import type { DashboardConfig } from '../dashboard.config';
import { PerMerchantHourlyLimiter } from '../http/per-merchant-hourly.limiter';

/** API keys a merchant may create or revoke per hour, both modes and both changes together. */
export const API_KEY_CHANGES_PER_HOUR = 100;

export const TOO_MANY_KEY_CHANGES = 'Too many API keys created or revoked; try again later';

/**
 * Every revocation reaches every gateway replica (a NOTIFY, and the key
 * dropped from each replica's key cache), and every new key is a row each
 * replica may look up: a user creating and revoking keys in a loop would
 * make that work without end. Creations and revocations, answered or
 * refused alike, are counted per merchant; replacing every active key of
 * both modes (MAX_ACTIVE_KEYS_PER_MODE, 25 each) still fits in the hour.
 */
@Injectable()
export class ApiKeyChangesLimiter extends PerMerchantHourlyLimiter {
  constructor(@Inject(REDIS) redis: Redis, @Inject(CONFIG) config: DashboardConfig) {
    super(redis, config, 'api-key-changes', API_KEY_CHANGES_PER_HOUR);
  }
}
