import { Module } from '@nestjs/common';
import { JsonLogger } from '@pp/platform';
import { DatabaseModule } from '@pp/platform/typeorm';
import { DataSource } from 'typeorm';
import { CheckoutSessionQueriesHandler } from './checkout-sessions/checkout-session-queries.handler';
import { LedgerDatabase } from './database/ledger.database';
import { MerchantEventQueriesHandler } from './merchant-events/merchant-event-queries.handler';
import { AllPaymentsQueriesHandler } from './payments/all-payments-queries.handler';
import { PaymentQueriesHandler } from './payments/payment-queries.handler';
import { PaymentSummaryHandler } from './payments/payment-summary.handler';
import { ReviewQueueMetrics } from './payments/review-queue.metrics';
import { RefundQueueMetrics } from './refunds/refund-queue.metrics';
import { RefundQueriesHandler } from './refunds/refund-queries.handler';
import { AppendConnection } from './event-store/append-connection';
import { AppendHandler } from './event-store/append.handler';
import { AppendMetrics } from './event-store/append.metrics';
import { EventStore } from './event-store/event-store';
import { EVENT_STORE, GroupCommitAppender } from './event-store/group-commit.appender';
import { LocalCommits } from './event-store/local-commits';
import { LEDGER_POOL, poolOf } from './event-store/ledger-pool';
import { LEDGER_PROJECTIONS } from './projections/ledger.projections';
import { EventPublisher } from './publication/event-publisher';
import { PublicationLagMetrics } from './publication/publication-lag.metrics';

@Module({
  imports: [DatabaseModule.forService(LedgerDatabase)],
  controllers: [AppendHandler, CheckoutSessionQueriesHandler, PaymentQueriesHandler, MerchantEventQueriesHandler, RefundQueriesHandler, AllPaymentsQueriesHandler, PaymentSummaryHandler],
  providers: [
    {
      provide: LEDGER_POOL,
      inject: [DataSource, JsonLogger],
      useFactory: (dataSource: DataSource, logger: JsonLogger) =>
        poolOf(dataSource, (error) => logger.warn('a database connection was lost while in use; the statements on it failed', { error: error.message })),
    },
    { provide: EVENT_STORE, useValue: new EventStore(LEDGER_PROJECTIONS) },
    AppendConnection,
    AppendMetrics,
    GroupCommitAppender,
    LocalCommits,
    EventPublisher,
    PublicationLagMetrics,
    ReviewQueueMetrics,
    RefundQueueMetrics,
  ],
})
export class LedgerModule {}
