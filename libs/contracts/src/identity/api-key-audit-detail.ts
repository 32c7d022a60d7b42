import type { MerchantApiKeyView } from './api-keys.commands';

/**
 * What the audit trail says of a key issued or revoked, the same from the
 * gateway's admin API, its CLI and the dashboard: its type and redacted form
 * (prefix and last four characters, never the key itself), the scopes it
 * carries, its rate limit and when it expires, so the entry alone tells what
 * the key may do.
 */
export function apiKeyDetail(key: Pick<MerchantApiKeyView, 'type' | 'redacted' | 'scopes' | 'rate_limit_per_second' | 'expires_at'>): string {
  return [
    `${key.type} ${key.redacted}`,
    `scopes: ${key.scopes.length > 0 ? key.scopes.join(', ') : 'none'}`,
    `rate_limit_per_second: ${key.rate_limit_per_second ?? 'mode default'}`,
    `expires_at: ${key.expires_at ?? 'never'}`,
  ].join('; ');
}
