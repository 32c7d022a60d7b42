import type { ServiceParts } from '@pp/platform';
import { GatewayModule } from './gateway.module';
import { BODY_LIMIT_BYTES, configureHttp } from './http/configure-http';
import type { GatewayConfig } from './gateway.config';

/** The gateway service beyond its configuration: main.ts loads it once the configuration is valid. */
export const serviceParts: ServiceParts<GatewayConfig> = {
  module: GatewayModule,
  http: {
    port: (config) => config.GATEWAY_PORT,
    bodyLimit: BODY_LIMIT_BYTES,
    configure: configureHttp,
  },
};
