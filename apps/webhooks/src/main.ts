import { runService } from '@pp/platform/boot';
import { WebhooksConfig } from './webhooks.config';

runService({
  name: 'webhooks',
  config: WebhooksConfig,
  parts: async () => (await import('./service-parts')).serviceParts,
});
