import { Module } from '@nestjs/common';
import { RedisModule } from '@pp/platform';
import { DatabaseModule } from '@pp/platform/typeorm';
import { WebhooksDatabase } from './database/webhooks.database';
import { DeliveriesController } from './delivery/deliveries.controller';
import { DeliveryAttemptJob } from './delivery/delivery-attempt.job';
import { DeliveryMetrics } from './delivery/delivery.metrics';
import { DeliveryQueue } from './delivery/delivery.queue';
import { DeliveryRepository } from './delivery/delivery.repository';
import { DeliverySweeper } from './delivery/delivery.sweeper';
import { EndpointSecretResealer } from './endpoints/endpoint-secret.resealer';
import { EndpointSecrets } from './endpoints/endpoint-secrets';
import { EndpointRepository } from './endpoints/endpoint.repository';
import { EndpointsController } from './endpoints/endpoints.controller';
import { MerchantEventConsumer } from './intake/merchant-event.consumer';

@Module({
  imports: [
    DatabaseModule.forService(WebhooksDatabase),
    RedisModule.forService({ servesWithout: true }), // first attempts go out; retries wait in Postgres
  ],
  controllers: [EndpointsController, DeliveriesController],
  providers: [
    EndpointSecrets,
    EndpointSecretResealer,
    EndpointRepository,
    DeliveryRepository,
    DeliveryQueue,
    DeliveryMetrics,
    DeliveryAttemptJob,
    DeliverySweeper,
    MerchantEventConsumer,
  ],
})
export class WebhooksModule {}
