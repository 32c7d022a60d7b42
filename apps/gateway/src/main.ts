import { runService } from '@pp/platform/boot';
import { GatewayConfig } from './gateway.config';

runService({
  name: 'gateway',
  config: GatewayConfig,
  parts: async () => (await import('./service-parts')).serviceParts,
});
