import type { ServiceParts } from '@pp/platform';
import { LedgerModule } from './ledger.module';
import type { LedgerConfig } from './ledger.config';

/** The ledger service beyond its configuration: main.ts loads it once the configuration is valid. */
export const serviceParts: ServiceParts<LedgerConfig> = {
  module: LedgerModule,
  metricsPort: (config) => config.METRICS_PORT,
};
