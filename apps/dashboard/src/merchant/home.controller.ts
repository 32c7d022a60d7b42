import { Controller, Get, Query } from '@nestjs/common';
import { type MerchantScope, PaymentSummaryQuery, type PaymentSummaryView, type PaymentView } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import { OmitType } from '@nestjs/mapped-types';
import { Permit } from '../auth/route-access';
import { Scope } from '../auth/signed-in';
import { parseInput } from '../http/parse-input';

/** How many of the latest payments Home shows. */
const LATEST_PAYMENTS = 5;

class HomeParams extends OmitType(PaymentSummaryQuery, ['merchant_id', 'livemode'] as const) {}

export interface HomeView {
  summary: PaymentSummaryView;
  latest: PaymentView[];
}

/** Home: today's and this week's payments by status, volume per day, and the latest payments, in the user's merchant and mode. */
@Controller('api/home')
export class HomeController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @Permit('merchant.read')
  async home(@Query() query: Record<string, unknown>, @Scope() scope: MerchantScope): Promise<HomeView> {
    const { mode: _mode, days, ...rest } = query;
    const params = parseInput(HomeParams, { ...rest, ...(typeof days === 'string' && /^\d{1,2}$/.test(days) ? { days: Number(days) } : days === undefined ? {} : { days }) });
    const [summary, latest] = await Promise.all([
      this.bus.request('ledger.payments.summary.v1', { ...params, ...scope }),
      this.bus.request('ledger.payments.list.v1', { ...scope, limit: LATEST_PAYMENTS }),
    ]);
    return { summary, latest: latest.data };
  }
}
