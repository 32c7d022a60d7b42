import type { IngestConfig } from '../ingest.config';
import { dnsResolver, loadDnsOverrides, overridesResolver, trustedKeysOnly } from './dkim-resolver';
import type { AuthenticationPolicy } from './notice-authenticator';

/** What an authentication worker is told at start: plain values, since a resolver cannot cross into a thread. */
export interface AuthenticationSettings {
  trustedDomains: string[];
  /** INGEST_DNS_OVERRIDES: keys come only from this file when set, from DNS otherwise. */
  dnsOverridesPath: string | null;
}

export const authenticationSettings = (config: Pick<IngestConfig, 'INGEST_TRUSTED_DKIM_DOMAINS' | 'INGEST_DNS_OVERRIDES'>): AuthenticationSettings => ({
  trustedDomains: [...config.INGEST_TRUSTED_DKIM_DOMAINS],
  dnsOverridesPath: config.INGEST_DNS_OVERRIDES ?? null,
});

/** The policy a worker authenticates with, built inside it; throws when the overrides file has become unreadable. */
export function authenticationPolicy(settings: AuthenticationSettings): AuthenticationPolicy {
  const keys = settings.dnsOverridesPath ? overridesResolver(loadDnsOverrides(settings.dnsOverridesPath)) : dnsResolver();
  return { trustedDomains: settings.trustedDomains, resolver: trustedKeysOnly(keys, settings.trustedDomains) };
}
