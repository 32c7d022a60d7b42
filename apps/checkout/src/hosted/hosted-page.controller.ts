import { Controller, Get, Headers, Param, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { PayerBudgets, SpendsStatusPollBudget } from '../http/payer-budgets';
import { sendJson, sendPage } from '../http/send';
import { checkoutPage } from '../pages/checkout-page.template';
import { negotiateLocale } from '../pages/locale';
import { messagePage } from '../pages/message-page.template';
import { PayerSessionReader, unexpectedStatus } from './payer-session.reader';

/**
 * The hosted checkout page (PRODUCT-RULES §4.8) at CHECKOUT_URL_BASE/sessions/<id> and its live status.
 * No simulator here: whoever holds a page's URL is not the merchant, and test sessions are confirmed only by
 * the API's simulate-payment or the dashboard's simulate action (docs/PRODUCT-RULES.md §4.6).
 */
@Controller('sessions')
@UseGuards(PayerBudgets)
export class HostedPageController {
  constructor(private readonly reader: PayerSessionReader) {}

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
      default:
        throw unexpectedStatus(session.status);
    }
  }

  /**
   * Polled by the page script (every second, slower after a failure) to follow the payment; on its own budget.
   * With the deadline, which can move later (the dashboard's preview checkout reopened): an open page counts down to it.
   */
  @Get(':id/status')
  @SpendsStatusPollBudget()
  async status(@Param('id') id: string, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const session = await this.reader.session(id);
    return sendJson(reply, 200, { status: session.status, expires_at: session.expires_at });
  }
}
