import { EventStore1767225600000 } from './1767225600000-event-store.migration';
import { CheckoutSessionsReadModel1767225600001 } from './1767225600001-checkout-sessions-read-model.migration';
import { MerchantEventsReadModel1767225600002 } from './1767225600002-merchant-events-read-model.migration';
import { MultiStreamIdempotency1767225600003 } from './1767225600003-multi-stream-idempotency.migration';
import { PaymentsReadModel1767225600004 } from './1767225600004-payments-read-model.migration';
import { PaymentsByStatus1767225600010 } from './1767225600010-payments-by-status.migration';
import { PaymentsByDay1767225600011 } from './1767225600011-payments-by-day.migration';
import { RefundsReadModel1767225600005 } from './1767225600005-refunds-read-model.migration';
import { RefundOutboundReference1767225600012 } from './1767225600012-refund-outbound-reference.migration';
import { EventTimeInMilliseconds1767225600013 } from './1767225600013-event-time-in-milliseconds.migration';
import { RefundOutboundReferenceNormalized1767225600014 } from './1767225600014-refund-outbound-reference-normalized.migration';
import { ListingFilterIndexes1767225600015 } from './1767225600015-listing-filter-indexes.migration';
import { RefundAndSessionListingIndexes1767225600016 } from './1767225600016-refund-and-session-listing-indexes.migration';
import { PaymentsAwaitingReview1767225600017 } from './1767225600017-payments-awaiting-review.migration';
import { RefundOutboundReferenceLettersAndDigits1767225600018 } from './1767225600018-refund-outbound-reference-letters-and-digits.migration';

/** Every migration of the ledger schema, oldest first. */
export const LedgerMigrations: Function[] = [
  EventStore1767225600000,
  CheckoutSessionsReadModel1767225600001,
  MerchantEventsReadModel1767225600002,
  MultiStreamIdempotency1767225600003,
  PaymentsReadModel1767225600004,
  RefundsReadModel1767225600005,
  PaymentsByStatus1767225600010,
  PaymentsByDay1767225600011,
  RefundOutboundReference1767225600012,
  EventTimeInMilliseconds1767225600013,
  RefundOutboundReferenceNormalized1767225600014,
  ListingFilterIndexes1767225600015,
  RefundAndSessionListingIndexes1767225600016,
  PaymentsAwaitingReview1767225600017,
  RefundOutboundReferenceLettersAndDigits1767225600018,
];
