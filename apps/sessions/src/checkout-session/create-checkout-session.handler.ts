import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type CheckoutSessionCreatedView, clientSecretFor, CreateCheckoutSessionCommand, foldStored } from '@pp/contracts';
import { type Clock, generateMemo, newSessionId, randomToken } from '@pp/kernel';
import { AggregateStore, BusClient, CLOCK, CONFIG, Handles } from '@pp/platform';
import type { SessionsConfig } from '../sessions.config';
import { type CheckoutSession, checkoutSessionAggregate, decide } from './checkout-session.decider';
import { createdView } from './checkout-session.view';
import { withFreshMemo } from './fresh-memo';
import { MemoDirectory } from './memo-directory';
import { checkReturnUrls } from './return-urls.policy';

@Controller()
export class CreateCheckoutSessionHandler {
  constructor(
    private readonly bus: BusClient,
    private readonly aggregates: AggregateStore,
    private readonly memos: MemoDirectory,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: SessionsConfig,
  ) {}

  /**
   * Exactly once per idempotency key: the ledger records the key with the
   * append, so a retry (after a crash anywhere) gets the original session
   * back with `replayed: true`. The reference and memo rules are the read
   * model's unique indexes, checked in the same transaction.
   */
  @Handles('sessions.create.v1')
  async create(@Payload() command: CreateCheckoutSessionCommand): Promise<CheckoutSessionCreatedView & { replayed: boolean }> {
    const body = command.body; // its class's rules were checked at the edge (return-urls.policy.ts)
    checkReturnUrls(body, command.livemode);
    const scope = { merchant_id: command.merchant_id, livemode: command.livemode };
    return withFreshMemo(async () => {
      const sessionId = newSessionId();
      const events = decide(null, {
        kind: 'create',
        now: this.clock.now(),
        ttlSeconds: this.config.SESSION_TTL_SECONDS,
        session: {
          session_id: sessionId,
          ...scope,
          amount: body.amount,
          reference: body.reference,
          memo: generateMemo(),
          client_secret: clientSecretFor(sessionId, randomToken(24)),
          success_url: body.success_url,
          cancel_url: body.cancel_url,
          metadata: body.metadata ?? null,
        },
      });
      // A new stream, so no load and no concurrency retry (CommandRunner is for load-decide-append). The
      // single-stream append, which only this service may send, is the ledger's group-committed fast path
      // for creations; its replay answers the original events.
      const append = this.aggregates.start(checkoutSessionAggregate, sessionId).append(events);
      const reply = await this.bus.request('ledger.append.v1', {
        ...append,
        metadata: scope,
        ...(command.idempotency ? { idempotency: command.idempotency } : {}),
      });
      // The payment that completes it usually comes to this process too: it then decides without a read.
      this.aggregates.appended([append], { streams: [reply], replayed: reply.replayed });
      const session = foldStored(checkoutSessionAggregate, reply.events) as CheckoutSession;
      this.memos.remember(session.memo, { session_id: session.id, merchant_id: session.merchant_id, livemode: session.livemode });
      return { ...createdView(session, this.config.CHECKOUT_URL_BASE), replayed: reply.replayed };
    });
  }
}
