import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type CheckoutSessionView, CompleteCheckoutSessionCommand } from '@pp/contracts';
import { Handles } from '@pp/platform';
import { CheckoutSessionLifecycle } from './checkout-session.lifecycle';
import { sessionView } from './checkout-session.view';

@Controller()
export class CompleteCheckoutSessionHandler {
  constructor(private readonly lifecycle: CheckoutSessionLifecycle) {}

  @Handles('sessions.complete.v1')
  async complete(@Payload() command: CompleteCheckoutSessionCommand): Promise<CheckoutSessionView> {
    const scope = { merchant_id: command.merchant_id, livemode: command.livemode };
    return sessionView(await this.lifecycle.complete(scope, command.session_id, command.transaction_id ?? null));
  }
}
