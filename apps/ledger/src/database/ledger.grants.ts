import type { TableGrants } from '@pp/platform';

/**
 * What the ledger's role (pp_ledger) may do in schema ledger. The event store
 * and the idempotency records are insert-only: without UPDATE, DELETE or
 * TRUNCATE, and owning nothing, the role can neither change history nor
 * switch off the triggers that also guard it. Read models are written by the
 * inline projections (insert, then update in place); emptying them is the
 * rebuild's job, which runs as the owner (`npm run ledger:rebuild`).
 */
export const LedgerGrants: TableGrants = {
  events: ['SELECT', 'INSERT'],
  idempotency_keys: ['SELECT', 'INSERT'],
  publication_checkpoints: ['SELECT', 'INSERT', 'UPDATE'],
  checkout_sessions: ['SELECT', 'INSERT', 'UPDATE'],
  payments: ['SELECT', 'INSERT', 'UPDATE'],
  merchant_events: ['SELECT', 'INSERT'],
  refunds: ['SELECT', 'INSERT', 'UPDATE'],
};
