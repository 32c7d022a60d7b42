import { Controller, Inject } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  type CheckoutSessionStatus,
  type CheckoutSessionView,
  DomainError,
  ErrorCode,
  GetCheckoutSessionQuery,
  type OverdueCheckoutSession,
  OverdueCheckoutSessionsQuery,
} from '@pp/contracts';
import { toIso } from '@pp/kernel';
import type { Pool } from 'pg';
import { LEDGER_POOL } from '../event-store/ledger-pool';

interface SessionRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  amount: string;
  reference: string;
  memo: string;
  status: CheckoutSessionStatus;
  client_secret: string;
  success_url: string;
  cancel_url: string;
  metadata: Record<string, unknown> | null;
  expires_at: Date;
  created_at: Date;
}

/** Queries on the checkout_sessions read model. */
@Controller()
export class CheckoutSessionQueriesHandler {
  constructor(@Inject(LEDGER_POOL) private readonly pool: Pool) {}

  @MessagePattern('ledger.checkout-sessions.get.v1')
  async get(@Payload() query: GetCheckoutSessionQuery): Promise<CheckoutSessionView> {
    const { rows } = await this.pool.query<SessionRow>(
      'SELECT * FROM ledger.checkout_sessions WHERE id = $1 AND merchant_id = $2 AND livemode = $3',
      [query.session_id, query.merchant_id, query.livemode],
    );
    if (rows.length === 0) throw new DomainError(ErrorCode.NotFound, 'Checkout session not found');
    const row = rows[0];
    return {
      id: row.id,
      amount: Number(row.amount),
      currency: 'CAD',
      reference: row.reference,
      memo: row.memo,
      status: row.status,
      livemode: row.livemode,
      client_secret: row.client_secret,
      success_url: row.success_url,
      cancel_url: row.cancel_url,
      metadata: row.metadata,
      expires_at: toIso(row.expires_at),
      created_at: toIso(row.created_at),
    };
  }

  @MessagePattern('ledger.checkout-sessions.overdue.v1')
  async overdue(@Payload() query: OverdueCheckoutSessionsQuery): Promise<{ sessions: OverdueCheckoutSession[] }> {
    const { rows } = await this.pool.query<Pick<SessionRow, 'id' | 'merchant_id' | 'livemode' | 'expires_at'>>(
      `SELECT id, merchant_id, livemode, expires_at FROM ledger.checkout_sessions
       WHERE status = 'PENDING' AND expires_at <= $1 ORDER BY expires_at LIMIT $2`,
      [query.due_by, query.limit],
    );
    return {
      sessions: rows.map((row) => ({
        session_id: row.id,
        merchant_id: row.merchant_id,
        livemode: row.livemode,
        expires_at: toIso(row.expires_at),
      })),
    };
  }
}
