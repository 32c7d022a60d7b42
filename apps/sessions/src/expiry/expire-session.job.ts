import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { bullConnection, CONFIG, JsonLogger, queuePrefix, runJobTraced } from '@pp/platform';
import { type Job, Worker } from 'bullmq';
import { CheckoutSessionLifecycle } from '../checkout-session/checkout-session.lifecycle';
import type { SessionsConfig } from '../sessions.config';
import { type SessionExpiryJob, SessionsQueue } from './session-expiry.queue';

/** Runs the delayed expiry jobs. A job that fires a little early fails and is retried with backoff; one whose session got a later deadline ends. */
@Injectable()
export class ExpireSessionJob implements OnApplicationBootstrap, OnApplicationShutdown {
  private worker?: Worker<SessionExpiryJob>;

  constructor(
    @Inject(CONFIG) private readonly config: SessionsConfig,
    private readonly lifecycle: CheckoutSessionLifecycle,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationBootstrap(): void {
    this.worker = new Worker<SessionExpiryJob>(SessionsQueue.SessionExpiry, (job) => runJobTraced(SessionsQueue.SessionExpiry, job, () => this.run(job)), {
      connection: bullConnection(this.config.REDIS_URL),
      prefix: queuePrefix(this.config.PP_NAMESPACE),
      concurrency: 10,
    });
    this.worker.on('error', (error) => this.logger.warn('session expiry worker error', { error: error.message }));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close();
  }

  private async run(job: Job<SessionExpiryJob>): Promise<void> {
    const session = await this.lifecycle.expire(job.data.session_id);
    if (session.status !== 'PENDING') return;
    // Its deadline moved later (session.expiry_extended): the job queued for the new deadline expires it.
    if (job.data.expires_at && Date.parse(session.expires_at) > Date.parse(job.data.expires_at)) return;
    throw new Error(`session ${session.id} is not due before ${session.expires_at}`);
  }
}
