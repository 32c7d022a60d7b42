import type { KeyType } from './api-key';
import type { Scope } from './scopes';

/** Who made a request, as established by the access hook. */
export type Principal = KeyPrincipal | AdminPrincipal | { kind: 'ingest' } | { kind: 'anonymous' };

/** The platform operator; token_id tells admin tokens apart (a keyed digest prefix under SERVER_SECRET, so rotating either starts a fresh idempotency space). */
export interface AdminPrincipal {
  kind: 'admin';
  token_id: string;
}

export interface KeyPrincipal {
  kind: 'api_key';
  key_id: string;
  merchant_id: string;
  type: KeyType;
  livemode: boolean;
  scopes: readonly Scope[];
  rate_limit_per_second: number | null;
}
