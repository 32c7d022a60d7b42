import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type CheckoutSessionView, ExpireTestSessionCommand } from '@pp/contracts';
import { Handles } from '@pp/platform';
import { CheckoutSessionLifecycle } from './checkout-session.lifecycle';
import { sessionView } from './checkout-session.view';
import { namedSessionId } from './session-id';

/** The sandbox's "expire now": lets a merchant see checkout.session.expired without waiting for the deadline. */
@Controller()
export class ExpireTestSessionHandler {
  constructor(private readonly lifecycle: CheckoutSessionLifecycle) {}

  @Handles('sessions.sandbox-expire.v1')
  async expire(@Payload() command: ExpireTestSessionCommand): Promise<CheckoutSessionView> {
    const scope = { merchant_id: command.merchant_id, livemode: command.livemode };
    return sessionView(await this.lifecycle.expireEarly(scope, namedSessionId(command.session_id)));
  }
}
