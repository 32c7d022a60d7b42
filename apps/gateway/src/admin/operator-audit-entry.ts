import { apiKeyDetail, type AuditAction, MAX_AUDIT_DETAIL, merchantCreatedDetail, PLATFORM_ADMIN_ROLE, type RecordAuditEntryCommand } from '@pp/contracts';
import { newId } from '@pp/kernel';
import type { ApiKeyView, ProvisionedMerchantView } from '../identity/identity.views';
import type { ResetDashboardUserView } from '../identity/dashboard-user-password.service';
import type { PlatformAdminView } from '../identity/platform-admin.service';

/** What an operator's action changed; who did it and from where come from the actor. */
export interface AdminAuditFact {
  action: AuditAction;
  target_id: string;
  /** The merchant and mode the action touched; null where it has none (a merchant's settings hold for both modes). */
  merchant_id: string | null;
  livemode: boolean | null;
  /** A short fact about the change; never a secret. */
  detail: string | null;
}

/** Who acted for the platform, outside the dashboard: the admin token or the gateway's CLI. */
export interface OperatorActor {
  actor_id: string;
  actor_email: string;
  request_id: string;
  address: string;
}

/** The entry for an operator's successful action, recorded as a platform admin's. */
export function operatorEntry(actor: OperatorActor, fact: AdminAuditFact): RecordAuditEntryCommand {
  return {
    id: newId('auditEntry'),
    ...actor,
    actor_role: PLATFORM_ADMIN_ROLE,
    ...fact,
    outcome: 'success',
    detail: fact.detail?.slice(0, MAX_AUDIT_DETAIL) ?? null,
    at: Date.now(),
  };
}

/** What the trail says of a merchant an operator created (admin route or CLI). */
export function merchantCreatedFact(merchant: ProvisionedMerchantView, depositAddress: string | undefined): AdminAuditFact {
  return {
    action: 'merchant.created',
    target_id: merchant.merchant_id,
    merchant_id: merchant.merchant_id,
    livemode: null,
    detail: merchantCreatedDetail(merchant.dashboard_user.email, depositAddress),
  };
}

/** What the trail says of a platform admin an operator created (admin route or CLI); never the password. */
export function platformAdminCreatedFact(admin: PlatformAdminView): AdminAuditFact {
  return { action: 'platform_admin.created', target_id: admin.id, merchant_id: null, livemode: null, detail: `${admin.email} (${PLATFORM_ADMIN_ROLE})` };
}

/** What the trail says of a platform admin an operator removed (admin route or CLI). */
export function platformAdminRemovedFact(admin: { id: string; email: string }): AdminAuditFact {
  return { action: 'platform_admin.removed', target_id: admin.id, merchant_id: null, livemode: null, detail: admin.email };
}

/** What the trail says of an operator's password set by another operator; whether it was generated, never the password. */
export function platformAdminPasswordResetFact(admin: PlatformAdminView): AdminAuditFact {
  return { action: 'platform_admin.password_reset', target_id: admin.id, merchant_id: null, livemode: null, detail: `${admin.email}${admin.password ? ' (generated)' : ''}` };
}

/** What the trail says of a merchant's dashboard user's password set by an operator; whether it was generated, never the password. */
export function dashboardUserPasswordResetFact(user: ResetDashboardUserView): AdminAuditFact {
  return { action: 'team.password_reset', target_id: user.id, merchant_id: user.merchant_id, livemode: null, detail: `${user.email} (${user.role})${user.password ? ' (generated)' : ''}` };
}

/** What the trail says of a key an operator issued or revoked (apiKeyDetail: never the key itself). */
export function apiKeyFact(action: 'api_key.created' | 'api_key.revoked', key: ApiKeyView): AdminAuditFact {
  return { action, target_id: key.id, merchant_id: key.merchant_id, livemode: key.livemode, detail: apiKeyDetail(key) };
}
