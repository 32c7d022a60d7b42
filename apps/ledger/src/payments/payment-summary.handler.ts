import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type PaymentDayTotal, type PaymentStatus, type PaymentStatusTotal, PaymentSummaryQuery, type PaymentSummaryView } from '@pp/contracts';
import { toIso } from '@pp/kernel';
import { Handles } from '@pp/platform';
import type { Pool } from 'pg';
import { LEDGER_POOL } from '../event-store/ledger-pool';

/** Statuses whose money arrived (a refund sends it back later, but the day still took it in): the chart's gross volume. */
const MONEY_IN = ['CONFIRMED', 'REFUNDED'];

/**
 * Counts and volumes by status for today and this ISO week, and the gross
 * volume of each of the last `$3` days, all in UTC and computed by Postgres
 * from one instant ($4) so the periods agree. Served by the
 * payments_by_day index (merchant, mode, created_at).
 */
const SUMMARY_SQL = `
  WITH bounds AS (
    SELECT date_trunc('day', $4::timestamptz AT TIME ZONE 'UTC') AS today,
           date_trunc('week', $4::timestamptz AT TIME ZONE 'UTC') AS week,
           date_trunc('day', $4::timestamptz AT TIME ZONE 'UTC') - ($3::int - 1) * interval '1 day' AS first_day
  ),
  recent AS (
    SELECT p.status, p.amount, p.created_at AT TIME ZONE 'UTC' AS created_utc
    FROM ledger.payments p, bounds b
    WHERE p.merchant_id = $1 AND p.livemode = $2
      AND p.created_at >= (LEAST(b.week, b.first_day) AT TIME ZONE 'UTC')
      AND p.created_at <= $4::timestamptz
  )
  SELECT 'today' AS period, status, NULL::text AS day, count(*)::int AS count, coalesce(sum(amount), 0)::bigint AS volume
    FROM recent, bounds WHERE created_utc >= bounds.today GROUP BY status
  UNION ALL
  SELECT 'week', status, NULL, count(*)::int, coalesce(sum(amount), 0)::bigint
    FROM recent, bounds WHERE created_utc >= bounds.week GROUP BY status
  UNION ALL
  SELECT 'day', NULL, to_char(d.day, 'YYYY-MM-DD'), count(r.amount)::int, coalesce(sum(r.amount), 0)::bigint
    FROM bounds b
    CROSS JOIN LATERAL generate_series(b.first_day, b.today, interval '1 day') AS d(day)
    LEFT JOIN recent r ON date_trunc('day', r.created_utc) = d.day AND r.status = ANY($5::text[])
    GROUP BY d.day`;

interface SummaryRow {
  period: 'today' | 'week' | 'day';
  status: PaymentStatus | null;
  day: string | null;
  count: number;
  volume: string;
}

/** The dashboard home's figures (docs/ARCHITECTURE.md "Dashboard"). */
@Controller()
export class PaymentSummaryHandler {
  constructor(@Inject(LEDGER_POOL) private readonly pool: Pool) {}

  @Handles('ledger.payments.summary.v1')
  async summary(@Payload() query: PaymentSummaryQuery): Promise<PaymentSummaryView> {
    const asOf = new Date();
    const { rows } = await this.pool.query<SummaryRow>(SUMMARY_SQL, [query.merchant_id, query.livemode, query.days ?? 14, asOf, MONEY_IN]);
    const totals = (period: SummaryRow['period']): PaymentStatusTotal[] =>
      rows.filter((row) => row.period === period).map((row) => ({ status: row.status!, count: row.count, volume: Number(row.volume) }));
    const daily: PaymentDayTotal[] = rows
      .filter((row) => row.period === 'day')
      .map((row) => ({ day: row.day!, count: row.count, volume: Number(row.volume) }))
      .sort((a, b) => a.day.localeCompare(b.day));
    return { as_of: toIso(asOf), today: totals('today'), this_week: totals('week'), daily };
  }
}
