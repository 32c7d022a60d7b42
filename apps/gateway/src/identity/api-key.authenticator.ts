import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { hashApiKey, parseApiKey, sameHash } from './api-key';
import { ApiKeyRepository } from './api-key.repository';
import type { KeyPrincipal } from './principal';

/** Resolves a presented API key to the merchant, mode and scopes it grants, or to nothing. */
@Injectable()
export class ApiKeyAuthenticator {
  private readonly keys: ApiKeyRepository;

  constructor(dataSource: DataSource) {
    this.keys = new ApiKeyRepository(dataSource);
  }

  async authenticate(presented: string, now = new Date()): Promise<KeyPrincipal | undefined> {
    const kind = parseApiKey(presented);
    if (!kind) return undefined; // malformed: no database round trip
    const hash = hashApiKey(presented);
    const key = await this.keys.findByHash(hash);
    if (!key || !sameHash(key.key_hash, hash)) return undefined;
    if (key.revoked_at || (key.expires_at && key.expires_at.getTime() <= now.getTime())) return undefined;
    if (key.type !== kind.type || key.livemode !== kind.livemode) return undefined;
    return {
      kind: 'api_key',
      key_id: key.id,
      merchant_id: key.merchant_id,
      type: key.type,
      livemode: key.livemode,
      scopes: key.scopes,
      rate_limit_per_second: key.rate_limit_per_second,
    };
  }
}
