import { Module } from '@nestjs/common';
import { RedisModule } from '@pp/platform';
import { DatabaseModule } from '@pp/platform/typeorm';
import { AdminModule } from './admin/admin.module';
import { AdminReviewModule } from './admin-review/admin-review.module';
import { CheckoutSessionsModule } from './checkout-sessions/checkout-sessions.module';
import { ClientCheckoutModule } from './client-checkout/client-checkout.module';
import { GatewayDatabase } from './database/gateway.database';
import { EmailIngestModule } from './email-ingest/email-ingest.module';
import { HealthModule } from './health/health.module';
import { DashboardIdentityModule } from './identity/dashboard-identity.module';
import { MerchantEventsModule } from './merchant-events/merchant-events.module';
import { PipelineModule } from './http/pipeline.module';
import { PaymentsModule } from './payments/payments.module';
import { RefundsModule } from './refunds/refunds.module';
import { SandboxModule } from './sandbox/sandbox.module';
import { WebhookEndpointsModule } from './webhook-endpoints/webhook-endpoints.module';

@Module({
  imports: [
    DatabaseModule.forService(GatewayDatabase),
    RedisModule.forService({ servesWithout: true }), // rate limits uncounted, idempotent requests 503 (docs/OPERATIONS.md)
    HealthModule,
    PipelineModule,
    AdminModule,
    AdminReviewModule,
    DashboardIdentityModule,
    CheckoutSessionsModule,
    ClientCheckoutModule,
    WebhookEndpointsModule,
    EmailIngestModule,
    PaymentsModule,
    MerchantEventsModule,
    SandboxModule,
    RefundsModule,
  ],
})
export class GatewayModule {}
