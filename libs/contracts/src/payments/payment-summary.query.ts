import { IsIn, IsOptional } from 'class-validator';
import { MerchantScope } from '../merchant-scope';
import type { PaymentStatus } from './payment.views';

/** How many days (today included) the dashboard's volume chart may cover. */
export const SUMMARY_DAY_CHOICES = [7, 14] as const;

/** `ledger.payments.summary.v1`: the dashboard home's figures for one merchant and mode. */
export class PaymentSummaryQuery extends MerchantScope {
  /** Days of the daily series, today (UTC) included; 14 by default. */
  @IsOptional()
  @IsIn(SUMMARY_DAY_CHOICES)
  days?: (typeof SUMMARY_DAY_CHOICES)[number];
}

/** Payments of one status in a period: how many, and their amounts added up (integer cents). */
export interface PaymentStatusTotal {
  status: PaymentStatus;
  count: number;
  volume: number;
}

/** One UTC day of the chart: payments created that day that brought money in (CONFIRMED, or REFUNDED since). */
export interface PaymentDayTotal {
  /** YYYY-MM-DD (UTC). */
  day: string;
  count: number;
  volume: number;
}

export interface PaymentSummaryView {
  /** The instant the figures were computed at (ISO 8601). */
  as_of: string;
  /** Since 00:00 UTC today, one entry per status that has payments. */
  today: PaymentStatusTotal[];
  /** Since Monday 00:00 UTC (ISO week), one entry per status that has payments. */
  this_week: PaymentStatusTotal[];
  /** Oldest first, every day present (zero when none). */
  daily: PaymentDayTotal[];
}

export interface PaymentSummarySubjects {
  /** Served by the ledger from its payments read model (counted by created_at in UTC). */
  'ledger.payments.summary.v1': { request: PaymentSummaryQuery; reply: PaymentSummaryView };
}
