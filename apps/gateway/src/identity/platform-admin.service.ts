import { DomainError, ErrorCode } from '@pp/contracts';
import { isUniqueViolation } from '@pp/platform';
import { newId } from '@pp/kernel';
import type { DataSource } from 'typeorm';
import { DashboardUserRepository } from './dashboard-user.repository';
import { generatePassword, hashPassword } from './password';
import { PlatformAdminRepository } from './platform-admin.repository';

/** 201 body of POST /v1/admin/platform_admins: the password only when generated (shown once). */
export interface PlatformAdminView {
  id: string;
  email: string;
  password?: string;
}

/** Creates an operator of the dashboard's admin console (admin route and CLI). */
export async function createPlatformAdmin(dataSource: DataSource, input: { email: string; password?: string }): Promise<PlatformAdminView> {
  // Sign-in looks platform admins up first: an admin sharing a merchant user's e-mail would lock that user out.
  if (await new DashboardUserRepository(dataSource).findByEmail(input.email)) {
    throw new DomainError(ErrorCode.Conflict, 'A dashboard user with this email already exists');
  }
  const generated = input.password === undefined ? generatePassword() : undefined;
  try {
    const admin = await new PlatformAdminRepository(dataSource).insert({
      id: newId('user'),
      email: input.email,
      password_hash: await hashPassword(input.password ?? generated!),
    });
    return { id: admin.id, email: admin.email, ...(generated ? { password: generated } : {}) };
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError(ErrorCode.Conflict, 'A platform admin with this email already exists');
    throw error;
  }
}
