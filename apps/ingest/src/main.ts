import { runService } from '@pp/platform/boot';
import { IngestConfig } from './ingest.config';

runService({
  name: 'ingest',
  config: IngestConfig,
  parts: async () => (await import('./service-parts')).serviceParts,
});
