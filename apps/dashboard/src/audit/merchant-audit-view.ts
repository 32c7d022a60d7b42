import { type AuditEntryView, PLATFORM_ADMIN_ROLE } from '@pp/contracts';

/** Who a merchant sees behind an entry the platform's operators made. */
export const PLATFORM_OPERATOR = 'Platform operator';

/**
 * A merchant's view of its own trail: what an operator did (a refund
 * approved, a key issued with the admin token) stays, and its request id
 * lets support find the full entry, but the operator's e-mail, user id and
 * network address are the platform's staff data, not the merchant's.
 */
export function asMerchantSees(entry: AuditEntryView): AuditEntryView {
  if (entry.actor_role !== PLATFORM_ADMIN_ROLE) return entry;
  return { ...entry, actor_id: null, actor_email: PLATFORM_OPERATOR, address: '' };
}
