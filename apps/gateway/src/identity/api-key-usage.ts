import { Injectable } from '@nestjs/common';
import { JsonLogger } from '@pp/platform';
import { DataSource } from 'typeorm';
import { ApiKeyRepository } from './api-key.repository';

/** A key's last use is shown to the minute: each gateway writes it at most this often per key. */
export const LAST_USED_PRECISION_MS = 60_000;
/** Keys remembered between writes; past this the memory starts over (a few extra writes, never a missed one). */
const MAX_REMEMBERED_KEYS = 10_000;

/**
 * Records when each key last authenticated a request, off the request's path:
 * at most one write per key and minute per gateway, not awaited, and a failed
 * write only logged (it loses a "last used" time, never a request).
 */
@Injectable()
export class ApiKeyUsage {
  private readonly keys: ApiKeyRepository;
  private readonly writtenAt = new Map<string, number>();

  constructor(
    dataSource: DataSource,
    private readonly logger: JsonLogger,
  ) {
    this.keys = new ApiKeyRepository(dataSource);
  }

  touch(keyId: string, now: number): void {
    const last = this.writtenAt.get(keyId);
    if (last !== undefined && now - last < LAST_USED_PRECISION_MS) return;
    if (this.writtenAt.size >= MAX_REMEMBERED_KEYS) this.writtenAt.clear();
    this.writtenAt.set(keyId, now);
    this.keys.recordUse(keyId, LAST_USED_PRECISION_MS).catch((error: Error) => this.logger.warn('could not record an API key’s last use', { key_id: keyId, error: error.message }));
  }
}
