import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type CheckoutPreviewView, checkoutPreviewStreamId, checkoutSessionStreamId, clientSecretFor, OpenCheckoutPreviewCommand } from '@pp/contracts';
import { generateMemo, newSessionId, randomToken } from '@pp/kernel';
import { CommandRunner, CONFIG, Handles } from '@pp/platform';
import { type CheckoutSession, checkoutSessionAggregate, fold } from '../checkout-session/checkout-session.decider';
import { checkoutUrl, sessionView } from '../checkout-session/checkout-session.view';
import { withFreshMemo } from '../checkout-session/fresh-memo';
import type { SessionsConfig } from '../sessions.config';
import { checkoutPreviewAggregate, decidePreview } from './checkout-preview.decider';

/** What the preview charges: a round test amount (CAD 25.00). */
export const PREVIEW_AMOUNT = 2500;

/** The dashboard's preview checkout (test mode only): the merchant's stable test session, reopened or renewed. */
@Controller()
export class OpenCheckoutPreviewHandler {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(CONFIG) private readonly config: SessionsConfig,
  ) {}

  @Handles('sessions.preview.v1')
  async open(@Payload() command: OpenCheckoutPreviewCommand): Promise<CheckoutPreviewView> {
    const { session, created } = await withFreshMemo(() => this.decideAndAppend(command));
    return { outcome: created ? 'created' : 'extended', checkout_url: checkoutUrl(this.config.CHECKOUT_URL_BASE, session.id), session: sessionView(session) };
  }

  private decideAndAppend(command: OpenCheckoutPreviewCommand): Promise<{ session: CheckoutSession; created: boolean }> {
    const scope = { merchant_id: command.merchant_id, livemode: false };
    return this.runner.run(async ({ load, now }) => {
      const preview = await load(checkoutPreviewAggregate, command.merchant_id);
      const current = preview.state ? await load(checkoutSessionAggregate, preview.state.session_id) : null;
      const sessionId = newSessionId();
      const decision = decidePreview(preview.state, current?.state ?? null, {
        now: now(),
        ttlSeconds: this.config.SESSION_TTL_SECONDS,
        currentVersion: current?.version ?? 0,
        candidate: {
          session_id: sessionId,
          ...scope,
          amount: PREVIEW_AMOUNT,
          reference: `preview-${sessionId}`,
          memo: generateMemo(),
          client_secret: clientSecretFor(sessionId, randomToken(24)),
          success_url: command.return_url,
          cancel_url: command.return_url,
          metadata: null,
        },
      });
      const created = decision.preview.length > 0;
      const before = created ? null : (current?.state ?? null);
      const answer = () => ({ session: fold(decision.session, before) as CheckoutSession, created });
      if (decision.session.length === 0) return { append: false, answer: answer() };
      const sessionStream = created ? this.runner.aggregates.start(checkoutSessionAggregate, decision.sessionId) : current!;
      const streams = [sessionStream.append(decision.session), ...(created ? [preview.append(decision.preview)] : [])];
      // Each outcome rests on what the other would change, so two opens racing the deadline end on one session:
      // an extension on the preview still naming this session, a renewal on the old session not extended since.
      const judgedOn = created
        ? current && preview.state ? [{ stream_id: checkoutSessionStreamId(preview.state.session_id), version: current.version }] : []
        : [{ stream_id: checkoutPreviewStreamId(command.merchant_id), version: preview.version }];
      // An extension rests on the session's being open, so it commits before the deadline it moves, or is decided
      // again then (and finds the session closed): from the deadline on, readers see it EXPIRED, and a later commit
      // would open it again under them.
      const commitBefore = created ? undefined : new Date(current!.state!.expires_at);
      const options = { ...(judgedOn.length > 0 ? { unchanged: judgedOn } : {}), ...(commitBefore ? { commitBefore } : {}) };
      return { append: streams, scope, answer, ...(Object.keys(options).length > 0 ? { options } : {}) };
    });
  }
}
