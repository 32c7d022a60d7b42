import { runService } from '@pp/platform';
import { IngestConfig } from './ingest.config';
import { IngestModule } from './ingest.module';

runService({
  name: 'ingest',
  config: IngestConfig,
  module: IngestModule,
  metricsPort: (config) => config.METRICS_PORT,
});
