import type { MerchantView } from '../identity/identity.views';

/**
 * The audit detail of a merchant update: which fields changed. The deposit
 * address comes first, with its old and new value, so truncation never cuts
 * it: it decides which merchant a live transfer notice confirms a payment for.
 */
export function merchantChangeDetail(before: MerchantView, after: MerchantView): string {
  const changes: string[] = [];
  if (before.etransfer_email !== after.etransfer_email) {
    changes.push(`deposit address ${before.etransfer_email ?? 'none'} → ${after.etransfer_email ?? 'none'}`);
  }
  if (before.name !== after.name) changes.push(`name ${after.name}`);
  const ancestors = after.frame_ancestors.join(' ');
  if (before.frame_ancestors.join(' ') !== ancestors) changes.push(`frame ancestors ${ancestors || 'none'}`);
  return changes.join('; ') || 'no change';
}
