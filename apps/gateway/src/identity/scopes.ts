/**
 * What an API key may do. Wire-visible (stored on keys, named in 403 messages):
 * do not rename a value without migrating the keys that carry it.
 */
export const SCOPES = ['checkout.write', 'payments.read', 'events.read', 'webhooks.write', 'refunds.write'] as const;

export type Scope = (typeof SCOPES)[number];

/** Secret keys carry every scope (PRODUCT-RULES §D3); restricted keys carry only the ones chosen for them. */
export const SECRET_KEY_SCOPES: readonly Scope[] = SCOPES;

export const isScope = (value: unknown): value is Scope => (SCOPES as readonly unknown[]).includes(value);
