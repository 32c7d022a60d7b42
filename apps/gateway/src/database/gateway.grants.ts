import type { TableGrants } from '@pp/platform';

/**
 * What the gateway's role (pp_gateway) may do in schema gateway. Identity rows
 * are edited in place (revocation, password change, merchant settings) but
 * never deleted (a removed dashboard user keeps its row). Audit entries are
 * append-only: added and read, never changed. Creation requests are never
 * changed, only deleted once past the Idempotency-Key retention
 * (CreationRequestRepository.prune).
 */
export const GatewayGrants: TableGrants = {
  merchants: ['SELECT', 'INSERT', 'UPDATE'],
  api_keys: ['SELECT', 'INSERT', 'UPDATE'],
  dashboard_users: ['SELECT', 'INSERT', 'UPDATE'],
  platform_admins: ['SELECT', 'INSERT', 'UPDATE'],
  audit_entries: ['SELECT', 'INSERT'],
  creation_requests: ['SELECT', 'INSERT', 'DELETE'],
};
