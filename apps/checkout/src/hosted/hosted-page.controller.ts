import { createHash, randomUUID } from 'node:crypto';
import { Body, Controller, Get, Headers, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { DomainError, ErrorCode, SIMULATED_OUTCOMES, type SimulatedOutcome } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import type { FastifyReply } from 'fastify';
import { PayerBudgets, SpendsStatusPollBudget } from '../http/payer-budgets';
import { sendJson, sendPage } from '../http/send';
import { checkoutPage } from '../pages/checkout-page.template';
import { negotiateLocale } from '../pages/locale';
import { messagePage } from '../pages/message-page.template';
import { PayerSessionReader } from './payer-session.reader';

/** The hosted checkout page (PRODUCT-RULES §4.8) at CHECKOUT_URL_BASE/sessions/<id>, its live status and the test-mode simulator. */
@Controller('sessions')
@UseGuards(PayerBudgets)
export class HostedPageController {
  constructor(
    private readonly reader: PayerSessionReader,
    private readonly bus: BusClient,
    private readonly budgets: PayerBudgets,
  ) {}

  @Get(':id')
  async page(
    @Param('id') id: string,
    @Query('lang') lang: unknown,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const locale = negotiateLocale(lang, acceptLanguage);
    const { session, merchant } = await this.reader.sessionWithMerchant(id);
    switch (session.status) {
      case 'COMPLETED':
        return sendPage(reply, 200, messagePage({ kind: 'completed', locale, returnUrl: session.success_url }));
      case 'EXPIRED':
        return sendPage(reply, 410, messagePage({ kind: 'expired', locale, returnUrl: session.cancel_url }));
      case 'PENDING':
        return sendPage(reply, 200, checkoutPage({ session, merchant, locale, now: new Date(), embed: null, path: `/sessions/${session.id}` }));
    }
  }

  /** Polled by the page script (every second, slower after a 429) to follow the payment; on its own budget. */
  @Get(':id/status')
  @SpendsStatusPollBudget()
  async status(@Param('id') id: string, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const session = await this.reader.session(id);
    return sendJson(reply, 200, { status: session.status });
  }

  /**
   * The developer's "simulate payment" control: test sessions only. The live
   * refusal is here, not only in the page, and the simulator itself refuses
   * live sessions too.
   */
  @Post(':id/simulate')
  async simulate(@Param('id') id: string, @Body() body: { outcome?: unknown } | undefined, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const outcome = body?.outcome;
    if (typeof outcome !== 'string' || !(SIMULATED_OUTCOMES as readonly string[]).includes(outcome)) {
      throw new DomainError(ErrorCode.ValidationFailed, `Validation failed: outcome must be one of ${SIMULATED_OUTCOMES.join(', ')}`);
    }
    const session = await this.reader.session(id);
    if (session.livemode) throw new DomainError(ErrorCode.Forbidden, 'Simulate payment requires a test session');
    await this.budgets.spendSimulation(session.id);
    const { transaction, session: after } = await this.bus.request('payments.simulate.v1', {
      merchant_id: session.merchant_id,
      livemode: false,
      session_id: session.id,
      outcome: outcome as SimulatedOutcome,
      // Each click is a new attempt; the fingerprint still ties the key to what was asked.
      idempotency: { key: `checkout-page-${randomUUID()}`, fingerprint: createHash('sha256').update(`${session.id}:${outcome}`).digest('hex') },
    });
    return sendJson(reply, 200, { transaction: { id: transaction.id, status: transaction.status }, session: { id: after.id, status: after.status } });
  }
}
