import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import type { AuditAction, AuditOutcome, DashboardPrincipal, RecordAuditEntryCommand } from '@pp/contracts';
import { newId } from '@pp/kernel';
import { BusClient, JsonLogger } from '@pp/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';

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

const ATTEMPTS = 3;
export const AUDIT_NOT_RECORDED = 'The action was done, but it could not be recorded in the audit trail; try again later';

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
  constructor(
    private readonly bus: BusClient,
    private readonly logger: JsonLogger,
  ) {}

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
      detail: fact.detail?.slice(0, 500) ?? null,
      request_id: String(reply.getHeader('x-request-id') ?? 'none'),
      address: request.ip,
      at: Date.now(),
    };
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.bus.request('identity.audit.record.v1', entry);
        return;
      } catch (error) {
        if (attempt < ATTEMPTS) continue;
        this.logger.error('audit entry not recorded', { audit_entry: entry, error: error instanceof Error ? error.message : String(error) });
        throw new ServiceUnavailableException(AUDIT_NOT_RECORDED);
      }
    }
  }
}
