import { runService } from '@pp/platform/boot';
import { CheckoutConfig } from './checkout.config';

runService({
  name: 'checkout',
  config: CheckoutConfig,
  parts: async () => (await import('./service-parts')).serviceParts,
});
