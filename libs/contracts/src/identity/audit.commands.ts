import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Matches, MaxLength, Min, ValidateIf } from 'class-validator';
import { MAX_ADMIN_PAGE_LIMIT, PageLimit } from '../list-page';

/**
 * Everything recorded in the audit trail (docs/ARCHITECTURE.md "Audit trail").
 * Wire values, stored in gateway.audit_entries: add, never rename.
 */
export const AUDIT_ACTIONS = [
  'auth.sign_in',
  'auth.password_changed',
  'refund.requested',
  'refund.cancelled',
  'refund.approved',
  'refund.rejected',
  'refund.marked_sent',
  'refund.completed',
  'refund.failed',
  'payment.verified',
  'payment.simulated',
  'event.resent',
  'api_key.created',
  'api_key.revoked',
  'webhook_endpoint.created',
  'webhook_endpoint.secret_rotated',
  'webhook_endpoint.deleted',
  'webhook_endpoint.enabled',
  'webhook_endpoint.disabled',
  'team.user_added',
  'team.role_changed',
  'team.user_removed',
  'team.password_reset',
  'merchant.created',
  'merchant.updated',
  'quarantine.released',
  'platform_admin.created',
  'platform_admin.removed',
  'platform_admin.password_reset',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export const AUDIT_ENTRY_ID_PATTERN = /^aud_[a-z0-9]{1,64}$/;
const MERCHANT_ID = /^mer_[a-z0-9]{1,64}$/;

/** One recorded action: who (user id, e-mail and role when known), for which merchant, on what, how it ended, from where. */
export interface AuditEntryView {
  id: string;
  /** Null for a failed sign-in: nobody was signed in (the e-mail tried is `actor_email`). */
  actor_id: string | null;
  actor_email: string;
  actor_role: string | null;
  /** Null for a platform admin's sign-in and a failed sign-in. */
  merchant_id: string | null;
  livemode: boolean | null;
  action: AuditAction;
  target_id: string | null;
  outcome: AuditOutcome;
  /** A short fact about the change (a new role, a reason); never a secret or password. */
  detail: string | null;
  request_id: string;
  address: string;
  /** UTC, milliseconds (ISO 8601). */
  at: string;
}

/** The longest detail an entry keeps: recorders cut theirs to it. */
export const MAX_AUDIT_DETAIL = 500;

/** What a change answers when it was done but its audit entry could not be stored (503). */
export const AUDIT_NOT_RECORDED = 'The action was done, but it could not be recorded in the audit trail; try again later';

/** `identity.audit.record.v1`: append one entry; its id is chosen by the caller, so a retried record is stored once. */
export class RecordAuditEntryCommand {
  @Matches(AUDIT_ENTRY_ID_PATTERN)
  id!: string;

  @ValidateIf((command: RecordAuditEntryCommand) => command.actor_id !== null)
  @IsString()
  @Length(1, 64)
  actor_id!: string | null;

  @IsString()
  @MaxLength(320)
  actor_email!: string;

  @ValidateIf((command: RecordAuditEntryCommand) => command.actor_role !== null)
  @IsString()
  @Length(1, 32)
  actor_role!: string | null;

  @ValidateIf((command: RecordAuditEntryCommand) => command.merchant_id !== null)
  @Matches(MERCHANT_ID)
  merchant_id!: string | null;

  @ValidateIf((command: RecordAuditEntryCommand) => command.livemode !== null)
  @IsBoolean()
  livemode!: boolean | null;

  @IsIn(AUDIT_ACTIONS)
  action!: AuditAction;

  @ValidateIf((command: RecordAuditEntryCommand) => command.target_id !== null)
  @IsString()
  @Length(1, 128)
  target_id!: string | null;

  @IsIn(AUDIT_OUTCOMES)
  outcome!: AuditOutcome;

  @ValidateIf((command: RecordAuditEntryCommand) => command.detail !== null)
  @IsString()
  @MaxLength(MAX_AUDIT_DETAIL)
  detail!: string | null;

  @IsString()
  @Length(1, 128)
  request_id!: string;

  @IsString()
  @Length(1, 64)
  address!: string;

  /** UTC milliseconds since the epoch, when the action was done. */
  @IsInt()
  @Min(0)
  at!: number;
}

/** `identity.audit.list.v1`: newest first; `merchant_id` absent means every merchant (platform admins only: the dashboard decides). */
export class ListAuditEntriesQuery {
  @IsOptional()
  @Matches(MERCHANT_ID, { message: 'merchant_id must look like mer_…' })
  merchant_id?: string;

  @IsOptional()
  @IsIn(AUDIT_ACTIONS, { message: 'action must be one of the audit actions' })
  action?: AuditAction;

  @IsOptional()
  @Matches(AUDIT_ENTRY_ID_PATTERN, { message: 'starting_after must look like aud_…' })
  starting_after?: string;

  @PageLimit(MAX_ADMIN_PAGE_LIMIT)
  limit?: number;
}
