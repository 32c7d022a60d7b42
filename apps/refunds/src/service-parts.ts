import type { ServiceParts } from '@pp/platform';
import { RefundsModule } from './refunds.module';
import type { RefundsConfig } from './refunds.config';

/** The refunds service beyond its configuration: main.ts loads it once the configuration is valid. */
export const serviceParts: ServiceParts<RefundsConfig> = {
  module: RefundsModule,
  metricsPort: (config) => config.METRICS_PORT,
};
