import { runService } from '@pp/platform';
import { RefundsConfig } from './refunds.config';
import { RefundsModule } from './refunds.module';

runService({
  name: 'refunds',
  config: RefundsConfig,
  module: RefundsModule,
  metricsPort: (config) => config.METRICS_PORT,
});
