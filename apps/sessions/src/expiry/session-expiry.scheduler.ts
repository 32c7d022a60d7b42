import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Clock } from '@pp/kernel';
import { CONFIG } from '@pp/platform';
import { Queue } from 'bullmq';
import type { CheckoutSession } from '../checkout-session/checkout-session.decider';
import { CLOCK } from '../checkout-session/checkout-session.lifecycle';
import type { SessionsConfig } from '../sessions.config';
import { queuePrefix, type SessionExpiryJob, SessionsQueue } from './session-expiry.queue';

/**
 * Queues a delayed job at a session's deadline. The job is only a wake-up
 * call: the deadline also lives in the ledger's read model, and the sweeper
 * expires what Redis forgot.
 */
@Injectable()
export class SessionExpiryScheduler implements OnApplicationShutdown {
  private readonly queue: Queue<SessionExpiryJob>;

  constructor(
    @Inject(CONFIG) config: SessionsConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.queue = new Queue<SessionExpiryJob>(SessionsQueue.SessionExpiry, {
      connection: { url: config.REDIS_URL },
      prefix: queuePrefix(config.PP_NAMESPACE),
    });
  }

  /** Idempotent: the job id is the session id, so a replayed create adds nothing while the job exists. */
  async schedule(session: CheckoutSession): Promise<void> {
    if (session.status !== 'PENDING') return;
    await this.queue.add(
      'expire',
      { session_id: session.id },
      {
        jobId: session.id,
        delay: Math.max(0, Date.parse(session.expires_at) - this.clock.now().getTime()),
        attempts: 8,
        backoff: { type: 'exponential', delay: 500 },
        removeOnComplete: true,
        removeOnFail: 1000,
      },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }
}
