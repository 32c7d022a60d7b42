import { checkoutSessionProjection } from '../checkout-sessions/checkout-session.projection';
import { merchantEventProjection } from '../merchant-events/merchant-event.projection';
import { paymentProjection } from '../payments/payment.projection';
import { refundProjection } from '../refunds/refund.projection';
import type { Projection } from './projection';

/**
 * Every read model of the ledger. To add one: a migration for its tables, a
 * `<noun>.projection.ts` implementing Projection in its feature folder, and
 * one line here. Appends then keep it current inline and `ledger:rebuild`
 * rebuilds it with the others.
 */
export const LEDGER_PROJECTIONS: readonly Projection[] = [checkoutSessionProjection, paymentProjection, merchantEventProjection, refundProjection];
