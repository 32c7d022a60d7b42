import { runService, trustedProxyList } from '@pp/platform';
import { CheckoutConfig } from './checkout.config';
import { CheckoutModule } from './checkout.module';
import { BODY_LIMIT_BYTES, configureHttp } from './http/configure-http';

runService({
  name: 'checkout',
  config: CheckoutConfig,
  module: CheckoutModule,
  http: {
    port: (config) => config.CHECKOUT_PORT,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: (config) => trustedProxyList(config.TRUSTED_PROXIES),
    configure: configureHttp,
  },
});
