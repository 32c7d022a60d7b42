import { runService } from '@pp/platform/boot';
import { RefundsConfig } from './refunds.config';

runService({
  name: 'refunds',
  config: RefundsConfig,
  parts: async () => (await import('./service-parts')).serviceParts,
});
