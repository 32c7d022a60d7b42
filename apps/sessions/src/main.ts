import { runService } from '@pp/platform/boot';
import { SessionsConfig } from './sessions.config';

runService({
  name: 'sessions',
  config: SessionsConfig,
  parts: async () => (await import('./service-parts')).serviceParts,
});
