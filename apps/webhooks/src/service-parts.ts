import type { ServiceParts } from '@pp/platform';
import { WebhooksModule } from './webhooks.module';
import type { WebhooksConfig } from './webhooks.config';

/** The webhooks service beyond its configuration: main.ts loads it once the configuration is valid. */
export const serviceParts: ServiceParts<WebhooksConfig> = {
  module: WebhooksModule,
  metricsPort: (config) => config.METRICS_PORT,
};
