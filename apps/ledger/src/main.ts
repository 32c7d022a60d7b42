import { runService } from '@pp/platform';
import { LedgerConfig } from './ledger.config';
import { LedgerModule } from './ledger.module';

runService({
  name: 'ledger',
  config: LedgerConfig,
  module: LedgerModule,
  metricsPort: (config) => config.METRICS_PORT,
});
