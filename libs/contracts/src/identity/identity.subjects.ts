import type { CreateApiKeyCommand, IssuedMerchantApiKeyView, ListApiKeysQuery, MerchantApiKeyView, RevokeApiKeyCommand } from './api-keys.commands';
import type { CreateMerchantCommand, ListMerchantsQuery, MerchantAdminView, MerchantUpdateReply, UpdateMerchantCommand } from './merchants.commands';
import type { ChangeDashboardPasswordCommand, DashboardLoginQuery, DashboardSessionPrincipal } from './dashboard-login.query';
import type { DashboardPrincipalQuery } from './dashboard-principal.query';
import type { AddedTeamUserView, AddTeamUserCommand, ListTeamQuery, RemoveTeamUserCommand, SetTeamRoleCommand, TeamUserView } from './team.commands';
import type { AuditEntryView, ListAuditEntriesQuery, RecordAuditEntryCommand } from './audit.commands';
import type { ListPage } from '../list-page';
import type { MerchantsByDepositAddressQuery, MerchantsByDepositAddressReply } from './merchants-by-deposit-address.query';

/** Served by the gateway, which owns merchants. */
export interface IdentitySubjects {
  /** The owners of the registered addresses among those asked about (none: an empty list, not an error). */
  'identity.merchants-by-deposit-address.v1': { request: MerchantsByDepositAddressQuery; reply: MerchantsByDepositAddressReply };
  /** UNAUTHORIZED 'Invalid email or password' for an unknown e-mail and a wrong password alike. */
  'identity.dashboard-login.v1': { request: DashboardLoginQuery; reply: DashboardSessionPrincipal };
  /**
   * UNAUTHORIZED 'Current password is wrong'; VALIDATION_FAILED for a new password under 12 characters. Answers the
   * account's new credential version, which the session that asked keeps (the others hold an older one and end).
   */
  'identity.dashboard-password.v1': { request: ChangeDashboardPasswordCommand; reply: { changed: true; credential_version: number } };
  /** The user's current principal, as a sign-in would answer it; NOT_FOUND 'Dashboard user not found' for a removed or unknown user. */
  'identity.dashboard-principal.v1': { request: DashboardPrincipalQuery; reply: DashboardSessionPrincipal };
  /** Newest first. */
  'identity.api-keys.list.v1': { request: ListApiKeysQuery; reply: { keys: MerchantApiKeyView[] } };
  /**
   * VALIDATION_FAILED naming the field (scopes only for restricted keys, which are live only; expires_at in the future).
   * With an Idempotency-Key that already issued a key: CONFLICT naming it (issued once, never shown again), or
   * VALIDATION_FAILED IDEMPOTENCY_KEY_REUSED when the key came with another request.
   */
  'identity.api-keys.create.v1': { request: CreateApiKeyCommand; reply: IssuedMerchantApiKeyView };
  /** NOT_FOUND 'API key not found' for another merchant's or mode's key. Revoking twice keeps the first time. */
  'identity.api-keys.revoke.v1': { request: RevokeApiKeyCommand; reply: MerchantApiKeyView };
  /** Platform admins' merchant list, newest first. NOT_FOUND 'Merchant not found' for an unknown starting_after. */
  'identity.merchants.list.v1': { request: ListMerchantsQuery; reply: { data: MerchantAdminView[]; has_more: boolean } };
  /**
   * The 201 body of POST /v1/admin/merchants (keys and owner password shown once); CONFLICT for a taken e-mail or
   * deposit address, or naming the merchant an Idempotency-Key already created (VALIDATION_FAILED
   * IDEMPOTENCY_KEY_REUSED when the key came with another request).
   */
  'identity.merchants.create.v1': { request: CreateMerchantCommand; reply: ProvisionedMerchantReply };
  /** The merchant after the update, and before it. NOT_FOUND 'Merchant not found'; CONFLICT when the deposit address belongs to another merchant. */
  'identity.merchants.update.v1': { request: UpdateMerchantCommand; reply: MerchantUpdateReply };
  /** The merchant's current users, oldest first. */
  'identity.team.list.v1': { request: ListTeamQuery; reply: { users: TeamUserView[] } };
  /** CONFLICT when the e-mail already signs someone in. */
  'identity.team.add.v1': { request: AddTeamUserCommand; reply: AddedTeamUserView };
  /** NOT_FOUND 'Dashboard user not found' for another merchant's user; CONFLICT for a change to oneself or one that leaves no owner. */
  'identity.team.set-role.v1': { request: SetTeamRoleCommand; reply: TeamUserView };
  /** As set-role. */
  'identity.team.remove.v1': { request: RemoveTeamUserCommand; reply: { id: string; removed: true } };
  /** Append-only; recording an id twice keeps the first entry. */
  'identity.audit.record.v1': { request: RecordAuditEntryCommand; reply: { id: string } };
  /** Newest first; an unknown starting_after answers an empty page. */
  'identity.audit.list.v1': { request: ListAuditEntriesQuery; reply: ListPage<AuditEntryView> };
}

/** A new merchant's four keys and owner, each shown once. */
export interface ProvisionedMerchantReply {
  merchant_id: string;
  keys: { live_secret: string; test_secret: string; live_publishable: string; test_publishable: string };
  dashboard_user: { id: string; email: string; role: string; password?: string };
}
