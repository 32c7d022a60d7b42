import { Inject, Injectable } from '@nestjs/common';
import { type AuditAction, AUDIT_NOT_RECORDED, MAX_AUDIT_DETAIL, PLATFORM_ADMIN_ROLE, type RecordAuditEntryCommand } from '@pp/contracts';
import { newId } from '@pp/kernel';
import { JsonLogger, storeAuditEntry } from '@pp/platform';
import type { FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { AuditEntryRepository } from '../audit/audit-entry.repository';
import { ApiError } from '../http/api-error';

/** What an admin action changed; who did it and from where come from the request. */
export interface AdminAuditFact {
  action: AuditAction;
  target_id: string;
  /** The merchant and mode the action touched; null where it has none (a merchant's settings hold for both modes). */
  merchant_id: string | null;
  livemode: boolean | null;
  /** A short fact about the change; never a secret. */
  detail: string | null;
}

/** How the admin token reads as the actor: the column holds a dashboard user's e-mail, and the token has none. */
export const ADMIN_TOKEN_ACTOR = 'ADMIN_TOKEN';

/**
 * Records what the operator changes through the admin API with ADMIN_TOKEN
 * (docs/ARCHITECTURE.md "Audit trail"), in the table the dashboard's entries
 * go to, called after the action succeeded and before answering; stored as
 * every recorder stores (storeAuditEntry), and answering 503 when it could not. An Idempotency-Key replay is answered before the
 * handler runs, so it records nothing twice.
 */
@Injectable()
export class AdminAudit {
  private readonly entries: AuditEntryRepository;

  constructor(
    @Inject(DataSource) dataSource: DataSource,
    private readonly logger: JsonLogger,
  ) {
    this.entries = new AuditEntryRepository(dataSource);
  }

  async record(request: FastifyRequest, fact: AdminAuditFact): Promise<void> {
    const principal = request.principal;
    if (principal.kind !== 'admin') throw new Error('AdminAudit used on a route without the admin token');
    const entry: RecordAuditEntryCommand = {
      id: newId('auditEntry'),
      actor_id: `admin-token:${principal.token_id}`,
      actor_email: ADMIN_TOKEN_ACTOR,
      actor_role: PLATFORM_ADMIN_ROLE,
      ...fact,
      outcome: 'success',
      detail: fact.detail?.slice(0, MAX_AUDIT_DETAIL) ?? null,
      request_id: request.requestId,
      address: request.ip,
      at: Date.now(),
    };
    if (!(await storeAuditEntry(entry, (toStore) => this.entries.append(toStore), this.logger))) throw new ApiError(503, AUDIT_NOT_RECORDED);
  }
}
