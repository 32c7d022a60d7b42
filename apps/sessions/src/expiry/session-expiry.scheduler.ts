import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Clock } from '@pp/kernel';
import { bullConnection, CLOCK, CONFIG, jobTrace, JsonLogger, queuePrefix, ServiceMetrics, type TracedJobData, watchQueueDepth, Batcher } from '@pp/platform';
import { Queue } from 'bullmq';
import type { CheckoutSession } from '../checkout-session/checkout-session.decider';
import type { SessionsConfig } from '../sessions.config';
import { type SessionExpiryJob, SessionsQueue, sessionExpiryJobId } from './session-expiry.queue';

/**
 * Jobs wait this long for others before they go to Redis together. Nobody
 * waits on them, and a deadline is minutes away: without it, sessions
 * created one at a time (a steady load below the maximum) cost one
 * `addBulk` round trip each, in sessions and in Redis.
 */
const EXPIRY_JOB_LINGER_MS = 20;

interface PendingJob {
  session: CheckoutSession;
  /** Taken when scheduled: the batch is added from whichever caller's context started it. */
  queuedBy: TracedJobData;
}

/**
 * Queues a delayed job at a session's deadline. The job is only a wake-up
 * call: the deadline also lives in the ledger's read model, and the sweeper
 * expires what Redis forgot. So the caller does not wait for it: a session
 * is answered as soon as the ledger holds it, and a job that cannot be queued
 * (Redis away) is logged and left to the sweeper, as one lost to a crash
 * between the append and the queue would be. Jobs asked for within 20 ms of
 * each other, or while one batch is being added, go together (one Redis
 * round trip for many sessions); shutdown adds those still waiting.
 */
@Injectable()
export class SessionExpiryScheduler implements OnApplicationShutdown {
  private readonly queue: Queue<SessionExpiryJob>;
  private readonly jobs = new Batcher<PendingJob>((batch) => this.add(batch), { lingerMs: EXPIRY_JOB_LINGER_MS });

  constructor(
    @Inject(CONFIG) config: SessionsConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly logger: JsonLogger,
    metrics: ServiceMetrics,
  ) {
    this.queue = new Queue<SessionExpiryJob>(SessionsQueue.SessionExpiry, {
      connection: bullConnection(config.REDIS_URL),
      prefix: queuePrefix(config.PP_NAMESPACE),
    });
    watchQueueDepth(metrics, this.queue);
  }

  /** Idempotent: the job id is the session and its deadline, so a replayed create adds nothing while the job exists. */
  schedule(session: CheckoutSession): void {
    if (session.status !== 'PENDING') return;
    this.jobs.add({ session, queuedBy: jobTrace() }).catch((error: unknown) =>
      this.logger.warn('could not queue the session expiry job; the sweeper will expire the session', {
        session_id: session.id,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.jobs.drain();
    await this.queue.close();
  }

  private async add(batch: PendingJob[]): Promise<void> {
    const now = this.clock.now().getTime();
    await this.queue.addBulk(
      batch.map(({ session, queuedBy }) => ({
        name: 'expire',
        data: { session_id: session.id, expires_at: session.expires_at, ...queuedBy },
        opts: {
          jobId: sessionExpiryJobId(session.id, session.expires_at),
          delay: Math.max(0, Date.parse(session.expires_at) - now),
          attempts: 8,
          backoff: { type: 'exponential', delay: 500 },
          removeOnComplete: true,
          removeOnFail: 1000,
        },
      })),
    );
  }
}
