import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { bullQueueConnection, bullWorkerConnection, CONFIG, FailureStreak, JsonLogger, queuePrefix, runJobTraced, ServiceMetrics, watchQueueDepth } from '@pp/platform';
import { type Job, Queue, Worker } from 'bullmq';
import type { SessionsConfig } from '../sessions.config';
import { OverdueSessionsSweep } from './overdue-sessions.sweep';
import { EXPIRY_SWEEP_JOB, EXPIRY_SWEEP_SCHEDULER, SessionsQueue } from './session-expiry.queue';

/**
 * Session expiry on BullMQ: a job scheduler queues one sweep every
 * SESSION_EXPIRY_SWEEP_MS, which one replica's worker runs, so a session
 * expires at most that long after its deadline. Nothing per session goes to
 * Redis: a create costs no queue write, and Redis holds one job, not one per
 * open session. The deadline lives in the ledger's read model; a payment
 * past it is refused by the decider whether or not the sweep has run.
 */
@Injectable()
export class ExpirySweepJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly queue: Queue;
  private worker?: Worker;
  private readonly schedulingFailures: FailureStreak;

  constructor(
    @Inject(CONFIG) private readonly config: SessionsConfig,
    private readonly sweep: OverdueSessionsSweep,
    private readonly logger: JsonLogger,
    metrics: ServiceMetrics,
  ) {
    this.queue = new Queue(SessionsQueue.SessionExpiry, { connection: bullQueueConnection(config.REDIS_URL), prefix: queuePrefix(config.PP_NAMESPACE) });
    watchQueueDepth(metrics, this.queue);
    this.schedulingFailures = new FailureStreak(logger, 'session expiry scheduling', { failedMessage: 'could not schedule the session expiry sweep; the process sweeps on its own interval' });
  }

  onApplicationBootstrap(): void {
    this.worker = new Worker(SessionsQueue.SessionExpiry, (job) => runJobTraced(SessionsQueue.SessionExpiry, job, () => this.run(job)), {
      connection: bullWorkerConnection(this.config.REDIS_URL),
      prefix: queuePrefix(this.config.PP_NAMESPACE),
      concurrency: 1,
    });
    this.worker.on('error', (error) => this.logger.warn('session expiry worker error', { error: error.message }));
    void this.ensureScheduled();
  }

  /**
   * Puts the scheduler in Redis, or leaves it as it is: every replica calls
   * this at start and on its own sweep's interval, so a Redis that lost its
   * keys gets the schedule back.
   */
  async ensureScheduled(): Promise<void> {
    try {
      await this.queue.upsertJobScheduler(
        EXPIRY_SWEEP_SCHEDULER,
        { every: this.config.SESSION_EXPIRY_SWEEP_MS },
        { name: EXPIRY_SWEEP_JOB, opts: { removeOnComplete: true, removeOnFail: 100 } },
      );
      this.schedulingFailures.succeeded();
    } catch (error) {
      this.schedulingFailures.failed(error);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
  }

  private async run(job: Job): Promise<void> {
    // A job of another name is an earlier version's wake-up for one session; the sweep expires that session too.
    if (job.name === EXPIRY_SWEEP_JOB) await this.sweep.run();
  }
}
