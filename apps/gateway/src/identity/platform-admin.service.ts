import { DomainError, ErrorCode } from '@pp/contracts';
import { isUniqueViolation } from '@pp/platform';
import { newId } from '@pp/kernel';
import type { DataSource } from 'typeorm';
import type { CreationRequest } from '../idempotency/creation-request.repository';
import { inRecordedTransaction, refuseRepeatedCreation } from '../idempotency/creation-requests';
import { isEmailTakenByOtherKind, lockAccountEmails } from './account-emails';
import { chosenOrGeneratedPassword } from './password';
import { ACCOUNT_NOT_FOUND } from './password-credentials';
import { PlatformAdminRepository } from './platform-admin.repository';

/** 201 body of POST /v1/admin/platform_admins: the password only when generated (shown once). */
export interface PlatformAdminView {
  id: string;
  email: string;
  password?: string;
}

/** An admin as GET /v1/admin/platform_admins lists it (and DELETE answers it, with the time of its removal). */
export interface PlatformAdminListing {
  id: string;
  email: string;
  created_at: string;
  removed_at?: string;
}

export const PLATFORM_ADMIN_NOT_FOUND = ACCOUNT_NOT_FOUND['gateway.platform_admins'];

/**
 * Creates an operator of the dashboard's admin console (admin route and CLI). With the admin route's Idempotency-Key,
 * recorded with the admin, so a repeat creates none (creation-requests.ts): a generated password is shown only once.
 */
export async function createPlatformAdmin(dataSource: DataSource, input: { email: string; password?: string }, request?: CreationRequest): Promise<PlatformAdminView> {
  await refuseRepeatedCreation(dataSource, request);
  const { hash: passwordHash, shown } = await chosenOrGeneratedPassword(input.password);
  try {
    const admin = await inRecordedTransaction(
      dataSource,
      request,
      'platform_admin',
      async (tx) => {
        // Sign-in looks platform admins up first: an admin sharing a merchant user's e-mail would lock that user out.
        await lockAccountEmails(tx);
        if (await isEmailTakenByOtherKind(tx, 'platform_admin', input.email)) throw new DomainError(ErrorCode.Conflict, 'A dashboard user with this email already exists');
        return new PlatformAdminRepository(tx).insert({ id: newId('user'), email: input.email, password_hash: passwordHash });
      },
      (inserted) => inserted.id,
    );
    return { id: admin.id, email: admin.email, ...shown };
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError(ErrorCode.Conflict, 'A platform admin with this email already exists');
    throw error;
  }
}

/** The id of the admin signing in with `email` (the CLI names admins by e-mail). */
export async function platformAdminIdByEmail(dataSource: DataSource, email: string): Promise<string> {
  const admin = await new PlatformAdminRepository(dataSource).findByEmail(email);
  if (!admin) throw new DomainError(ErrorCode.NotFound, PLATFORM_ADMIN_NOT_FOUND);
  return admin.id;
}

/** The platform's operators, oldest first. */
export async function listPlatformAdmins(dataSource: DataSource): Promise<PlatformAdminListing[]> {
  return (await new PlatformAdminRepository(dataSource).listActive()).map((admin) => ({ id: admin.id, email: admin.email, created_at: admin.created_at.toISOString() }));
}

/**
 * Removes an operator: sign-in no longer finds it, and its open dashboard sessions end at their next principal
 * recheck (at most DASHBOARD_PRINCIPAL_RECHECK_SECONDS later), which answers the removed admin not found.
 */
export async function removePlatformAdmin(dataSource: DataSource, id: string): Promise<PlatformAdminListing> {
  const removed = await new PlatformAdminRepository(dataSource).remove(id);
  if (!removed) throw new DomainError(ErrorCode.NotFound, PLATFORM_ADMIN_NOT_FOUND);
  return { id: removed.id, email: removed.email, created_at: removed.created_at.toISOString(), removed_at: removed.removed_at!.toISOString() };
}

/**
 * Sets an operator's password without the old one (a forgotten or leaked password). The credential version moves
 * on with it, so every dashboard session signed in with the old password ends at its next recheck.
 */
export async function resetPlatformAdminPassword(dataSource: DataSource, id: string, password: string | undefined): Promise<PlatformAdminView> {
  const admins = new PlatformAdminRepository(dataSource);
  const admin = await admins.findById(id);
  if (!admin) throw new DomainError(ErrorCode.NotFound, PLATFORM_ADMIN_NOT_FOUND);
  const { hash, shown } = await chosenOrGeneratedPassword(password);
  await admins.setPassword(admin.id, hash);
  return { id: admin.id, email: admin.email, ...shown };
}
