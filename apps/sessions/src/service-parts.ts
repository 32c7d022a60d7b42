import type { ServiceParts } from '@pp/platform';
import { SessionsModule } from './sessions.module';
import type { SessionsConfig } from './sessions.config';

/** The sessions service beyond its configuration: main.ts loads it once the configuration is valid. */
export const serviceParts: ServiceParts<SessionsConfig> = {
  module: SessionsModule,
  metricsPort: (config) => config.METRICS_PORT,
};
