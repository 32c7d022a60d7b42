import { runService } from '@pp/platform';
import { CheckoutConfig } from './checkout.config';
import { CheckoutModule } from './checkout.module';

runService({
  name: 'checkout',
  config: CheckoutConfig,
  module: CheckoutModule,
  http: { port: (config) => config.CHECKOUT_PORT },
});
