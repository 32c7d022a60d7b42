import type { ServiceParts } from '@pp/platform';
import { DashboardModule } from './dashboard.module';
import { BODY_LIMIT_BYTES, configureHttp } from './http/configure-http';
import type { DashboardConfig } from './dashboard.config';

/** The dashboard service beyond its configuration: main.ts loads it once the configuration is valid. */
export const serviceParts: ServiceParts<DashboardConfig> = {
  module: DashboardModule,
  http: { port: (config) => config.DASHBOARD_PORT, bodyLimit: BODY_LIMIT_BYTES, configure: configureHttp },
};
