import type { MerchantAdminView } from './merchants.commands';

/** The settings of a merchant an audit detail speaks of. */
type MerchantSettings = Pick<MerchantAdminView, 'name' | 'etransfer_email' | 'frame_ancestors'>;

/*
 * What the audit trail says of a merchant an operator created or changed,
 * the same from the gateway's admin API and the dashboard's console: the
 * deposit address decides which merchant a live transfer notice confirms a
 * payment for, so it is always named, and named first so that truncation
 * never cuts it.
 */

/** A merchant created: its owner, and its deposit address when it has one. */
export function merchantCreatedDetail(ownerEmail: string, depositAddress: string | null | undefined): string {
  return `owner ${ownerEmail}${depositAddress ? `; deposit address ${depositAddress}` : ''}`;
}

/** A merchant updated: the fields that changed, the deposit address with its old and new value; `no change` when none did. */
export function merchantChangeDetail(before: MerchantSettings, after: MerchantSettings): string {
  const changes: string[] = [];
  if (before.etransfer_email !== after.etransfer_email) {
    changes.push(`deposit address ${before.etransfer_email ?? 'none'} → ${after.etransfer_email ?? 'none'}`);
  }
  if (before.name !== after.name) changes.push(`name ${after.name}`);
  const ancestors = after.frame_ancestors.join(' ');
  if (before.frame_ancestors.join(' ') !== ancestors) changes.push(`frame ancestors ${ancestors || 'none'}`);
  return changes.join('; ') || 'no change';
}
