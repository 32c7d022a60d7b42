import type { ServiceParts } from '@pp/platform';
import { IngestModule } from './ingest.module';
import type { IngestConfig } from './ingest.config';

/** The ingest service beyond its configuration: main.ts loads it once the configuration is valid. */
export const serviceParts: ServiceParts<IngestConfig> = {
  module: IngestModule,
  metricsPort: (config) => config.METRICS_PORT,
};
