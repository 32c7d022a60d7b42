import { runService } from '@pp/platform';
import { GatewayConfig } from './gateway.config';
import { GatewayModule } from './gateway.module';

runService({
  name: 'gateway',
  config: GatewayConfig,
  module: GatewayModule,
  http: { port: (config) => config.GATEWAY_PORT },
});
