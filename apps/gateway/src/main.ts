import { runService, trustedProxyList } from '@pp/platform';
import { GatewayConfig } from './gateway.config';
import { GatewayModule } from './gateway.module';
import { BODY_LIMIT_BYTES, configureHttp } from './http/configure-http';

runService({
  name: 'gateway',
  config: GatewayConfig,
  module: GatewayModule,
  http: {
    port: (config) => config.GATEWAY_PORT,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: (config) => trustedProxyList(config.TRUSTED_PROXIES),
    configure: configureHttp,
  },
});
