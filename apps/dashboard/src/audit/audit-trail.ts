import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import { type AuditAction, type AuditOutcome, AUDIT_NOT_RECORDED, type DashboardPrincipal, MAX_AUDIT_DETAIL, type RecordAuditEntryCommand } from '@pp/contracts';
import { newId } from '@pp/kernel';
import { BusClient, JsonLogger, ServiceMetrics, storeAuditEntry, unrecordedAuditEntries } from '@pp/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Counter } from 'prom-client';

/** What an action changed; who did it and from where come from the request. */
export interface AuditFact {
  action: AuditAction;
  target_id: string | null;
  outcome?: AuditOutcome;
  /** The merchant and mode the action touched, when not the signed-in user's own (a platform admin acting on a merchant's refund). */
  merchant_id?: string | null;
  livemode?: boolean | null;
  detail?: string | null;
}

/** Who acted: the signed-in user, or for a failed sign-in only the e-mail tried. */
export type AuditActor = DashboardPrincipal | { id: null; email: string; role: null; merchant_id?: undefined };


/**
 * The one place the dashboard records what its users change
 * (docs/ARCHITECTURE.md "Audit trail"). Called after the action succeeded
 * and before answering: the entry is sent to the gateway, which stores it
 * append-only; its id is chosen here, so a retry stores it once. When every
 * attempt fails, the whole entry goes to the error log (nothing is lost
 * silently) and the caller answers 503.
 */
@Injectable()
export class AuditTrail {
  private readonly unrecorded: Counter;

  constructor(
    private readonly bus: BusClient,
    private readonly logger: JsonLogger,
    metrics: ServiceMetrics,
  ) {
    this.unrecorded = unrecordedAuditEntries(metrics);
  }

  async record(request: FastifyRequest, reply: FastifyReply, actor: AuditActor, fact: AuditFact): Promise<void> {
    const entry: RecordAuditEntryCommand = {
      id: newId('auditEntry'),
      actor_id: actor.id,
      actor_email: actor.email.slice(0, 320),
      actor_role: actor.role,
      merchant_id: fact.merchant_id === undefined ? (actor.merchant_id ?? null) : fact.merchant_id,
      livemode: fact.livemode ?? null,
      action: fact.action,
      target_id: fact.target_id,
      outcome: fact.outcome ?? 'success',
      detail: fact.detail?.slice(0, MAX_AUDIT_DETAIL) ?? null,
      request_id: String(reply.getHeader('x-request-id') ?? 'none'),
      address: request.ip,
      at: Date.now(),
    };
    const stored = await storeAuditEntry(entry, (toStore) => this.bus.request('identity.audit.record.v1', toStore), this.logger, this.unrecorded);
    if (!stored) throw new ServiceUnavailableException(AUDIT_NOT_RECORDED);
  }
}
