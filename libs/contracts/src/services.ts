/**
 * The deployable services. Names are wire-visible (health subjects, queue
 * groups, log lines): do not rename without a migration.
 */
export const SERVICE_NAMES = [
  'gateway',
  'sessions',
  'ledger',
  'ingest',
  'refunds',
  'webhooks',
  'checkout',
  'dashboard',
] as const;

export type ServiceName = (typeof SERVICE_NAMES)[number];
