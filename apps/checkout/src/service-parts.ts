import type { ServiceParts } from '@pp/platform';
import { CheckoutModule } from './checkout.module';
import { BODY_LIMIT_BYTES, configureHttp } from './http/configure-http';
import type { CheckoutConfig } from './checkout.config';

/** The checkout service beyond its configuration: main.ts loads it once the configuration is valid. */
export const serviceParts: ServiceParts<CheckoutConfig> = {
  module: CheckoutModule,
  http: {
    port: (config) => config.CHECKOUT_PORT,
    bodyLimit: BODY_LIMIT_BYTES,
    configure: configureHttp,
  },
};
