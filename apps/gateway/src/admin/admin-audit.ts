import { Inject, Injectable } from '@nestjs/common';
import { type AuditAction, PLATFORM_ADMIN_ROLE, type RecordAuditEntryCommand } from '@pp/contracts';
import { newId } from '@pp/kernel';
import { JsonLogger } from '@pp/platform';
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

export const AUDIT_NOT_RECORDED = 'The action was done, but it could not be recorded in the audit trail; try again later';

const ATTEMPTS = 3;
const MAX_DETAIL_LENGTH = 500;

/**
 * Records what the operator changes through the admin API with ADMIN_TOKEN
 * (docs/ARCHITECTURE.md "Audit trail"), in the table the dashboard's entries
 * go to, and failing the way the dashboard's AuditTrail does: called after the
 * action succeeded and before answering; retried with the same id (stored
 * once); when every attempt fails, the whole entry goes to the error log and
 * the request answers 503. An Idempotency-Key replay is answered before the
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
      detail: fact.detail?.slice(0, MAX_DETAIL_LENGTH) ?? null,
      request_id: request.requestId,
      address: request.ip,
      at: Date.now(),
    };
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.entries.append(entry);
        return;
      } catch (error) {
        if (attempt < ATTEMPTS) continue;
        this.logger.error('audit entry not recorded', { audit_entry: entry, error: error instanceof Error ? error.message : String(error) });
        throw new ApiError(503, AUDIT_NOT_RECORDED);
      }
    }
  }
}
