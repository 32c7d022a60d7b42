import { Inject, Injectable } from '@nestjs/common';
import { AUDIT_NOT_RECORDED, type AuditAction } from '@pp/contracts';
import { JsonLogger, ServiceMetrics, storeAuditEntry, unrecordedAuditEntries } from '@pp/platform';
import type { FastifyRequest } from 'fastify';
import type { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { AuditEntryRepository } from '../audit/audit-entry.repository';
import { ApiError } from '../http/api-error';
import { type AdminAuditFact, operatorEntry } from './operator-audit-entry';

/** How the admin token reads as the actor: the column holds a dashboard user's e-mail, and the token has none. */
export const ADMIN_TOKEN_ACTOR = 'ADMIN_TOKEN';

/**
 * The admin actions a repeat would make again, and that nothing but the Idempotency-Key's Redis record stops: a password
 * reset (an operator's, a merchant's user's). The creations (a merchant, an API key, a platform admin) record their key in gateway.creation_requests with
 * what they made, so a repeat is answered 409 naming it, which says more than a 503 kept for 24 hours.
 */
const UNRECORDED_REMAKES: ReadonlySet<AuditAction> = new Set<AuditAction>(['platform_admin.password_reset', 'team.password_reset']);

/** Which admin token acted, as the trail (and a quarantine release) names it. */
export function adminTokenActor(request: FastifyRequest): string {
  const principal = request.principal;
  if (principal.kind !== 'admin') throw new Error('An admin action on a route without the admin token');
  return `admin-token:${principal.token_id}`;
}

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
  private readonly unrecorded: Counter;

  constructor(
    @Inject(DataSource) dataSource: DataSource,
    private readonly logger: JsonLogger,
    metrics: ServiceMetrics,
  ) {
    this.entries = new AuditEntryRepository(dataSource);
    this.unrecorded = unrecordedAuditEntries(metrics);
  }

  async record(request: FastifyRequest, fact: AdminAuditFact): Promise<void> {
    // Called once the action committed. A password reset must not be made again by a retry under the same
    // Idempotency-Key, whatever is answered now; a creation's repeat is refused by its record, and the others (a
    // refund's stage, a release) are answered "already …" when repeated, which records the entry this answer may miss.
    if (UNRECORDED_REMAKES.has(fact.action)) request.changeCommitted = true;
    const entry = operatorEntry({ actor_id: adminTokenActor(request), actor_email: ADMIN_TOKEN_ACTOR, request_id: request.requestId, address: request.ip }, fact);
    if (!(await storeAuditEntry(entry, (toStore) => this.entries.append(toStore), this.logger, this.unrecorded))) throw new ApiError(503, AUDIT_NOT_RECORDED);
  }
}
