import { runService } from '@pp/platform';
import { WebhooksConfig } from './webhooks.config';
import { WebhooksModule } from './webhooks.module';

runService({
  name: 'webhooks',
  config: WebhooksConfig,
  module: WebhooksModule,
  metricsPort: (config) => config.METRICS_PORT,
});
