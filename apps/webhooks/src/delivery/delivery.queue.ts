import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { bullQueueConnection, CONFIG, FailureStreak, JsonLogger, jobTrace, queuePrefix, requestContext, ServiceMetrics, type TracedJobData, watchQueueDepth } from '@pp/platform';
import { Queue } from 'bullmq';
import type { WebhooksConfig } from '../webhooks.config';
import type { DueDelivery } from './delivery.repository';
import { TaggedJobs } from './tagged-jobs';

/** BullMQ queue names. Do not rename: queued jobs live under these names in Redis. */
export enum WebhookQueue {
  Delivery = 'webhook-delivery',
}

/**
 * Payload of a `webhook-delivery` job: make attempt number `attempt` of the
 * delivery. `trace` is the context that queued it: the consumption of the
 * event for a first attempt, the previous attempt for a retry. `endpoint_id`
 * lets the worker hold back an attempt to a slow endpoint before claiming it
 * (jobs queued before it was added have none, and are not held back).
 * `request_id` is the request the attempt is logged under: the one that caused
 * the event, or the resend's (jobs queued before it was added, and those the
 * sweeper queues, have none, and get a new one).
 */
export interface DeliveryJob extends TracedJobData {
  delivery_id: string;
  attempt: number;
  endpoint_id?: string;
  request_id?: string;
}

/** The states of a job that will still run (a 'delayed' one only if it is due by the time its delivery is). */
const LIVE_STATES: ReadonlySet<string> = new Set(['waiting', 'delayed', 'active', 'prioritized', 'waiting-children']);
/** A delayed job due this much after its delivery still counts as the delivery's (the two are set from one time). */
const DUE_SLACK_MS = 1000;

/** Kept finished jobs: enough for their deterministic ids to absorb late duplicates, bounded in memory. */
const KEEP = { age: 3600, count: 10_000 };
/** Attempts queued under a tagged id that a replica remembers (tagged-jobs.ts), as many as the finished jobs kept. */
const TAGGED_REMEMBERED = 10_000;

/**
 * Wake-ups for delivery attempts. A job's id names the delivery and the
 * attempt, so the same attempt is queued once however often it is requested
 * (redelivered NATS messages, the sweeper); Postgres decides whether the
 * attempt still has to be made.
 */
@Injectable()
export class DeliveryQueue implements OnApplicationShutdown {
  readonly queue: Queue<DeliveryJob>;
  private readonly failures: FailureStreak;
  /** The tagged jobs this replica queued, so its sweeper sees them: without, each sweep added a copy while a backlog waited. */
  private readonly tagged = new TaggedJobs(TAGGED_REMEMBERED);

  constructor(@Inject(CONFIG) config: WebhooksConfig, metrics: ServiceMetrics, logger: JsonLogger) {
    this.queue = new Queue<DeliveryJob>(WebhookQueue.Delivery, {
      connection: bullQueueConnection(config.REDIS_URL),
      prefix: queuePrefix(config.PP_NAMESPACE),
      defaultJobOptions: { removeOnComplete: KEEP, removeOnFail: KEEP, attempts: 3, backoff: { type: 'exponential', delay: 1000 } },
    });
    watchQueueDepth(metrics, this.queue);
    this.failures = new FailureStreak(logger, 'queueing delivery attempts', { failedMessage: 'could not queue delivery attempts; the sweeper queues them once they are due' });
  }

  /**
   * Queues the attempts, or leaves them to the sweeper when Redis cannot
   * take them: Postgres has them already. Never throws; a failure is
   * logged once per streak (a Redis outage would otherwise log every
   * delivery).
   */
  async enqueueOrLeaveToSweeper(deliveries: readonly DueDelivery[], tag = ''): Promise<void> {
    if (deliveries.length === 0) return; // no Redis call, so nothing to say of Redis
    await this.failures.guard(() => this.enqueue(deliveries, tag), undefined, { deliveries: deliveries.length });
  }

  /**
   * Queues the given attempts, each at its due time, with the active trace context and request id;
   * `tag` distinguishes a manual resend from the scheduled attempt.
   */
  async enqueue(deliveries: readonly DueDelivery[], tag = ''): Promise<void> {
    if (deliveries.length === 0) return;
    const now = Date.now();
    const requestId = requestContext.current()?.requestId;
    const queuedBy = { ...jobTrace(), ...(requestId ? { request_id: requestId } : {}) };
    // The queue's connection has the Redis deadline (bull-options.ts): callers need not wait while Redis is away, Postgres has the work.
    await this.queue.addBulk(
      deliveries.map((delivery) => ({
        name: 'attempt',
        data: { delivery_id: delivery.id, attempt: delivery.attempt, endpoint_id: delivery.endpoint_id, ...queuedBy },
        opts: {
          jobId: `${attemptJobId(delivery)}${tag ? `.${tag}` : ''}`,
          delay: Math.max(0, new Date(delivery.next_attempt_at).getTime() - now),
        },
      })),
    );
    if (tag) for (const delivery of deliveries) this.tagged.remember(attemptJobId(delivery), `${attemptJobId(delivery)}.${tag}`);
  }

  /**
   * Queues overdue deliveries again. An attempt whose job is still waiting
   * or running is left alone, and so is one whose latest tagged job this
   * replica queued (a resend's, its own sweep's) is; otherwise (the job is
   * gone, finished as a no-op, delayed past the delivery's due time, or only
   * half there after a partial loss of Redis data) a job with a new id is
   * added, and the claim in Postgres keeps it from doubling an attempt.
   * Another replica's tagged jobs are not seen: while a backlog waits, each
   * replica may add one copy, not one per sweep.
   */
  async requeue(deliveries: readonly DueDelivery[]): Promise<number> {
    const live = await Promise.all(deliveries.map((delivery) => this.willRun(delivery)));
    const lost = deliveries.filter((_, index) => !live[index]);
    await this.enqueue(lost, `swept-${Date.now()}`);
    return lost.length;
  }

  /**
   * Whether the delivery's scheduled job will make its attempt in time. A delayed job is, when it is due by the
   * delivery's time (past due, it only waits for a free worker), or when a worker put it back after taking it (held
   * back for a slow endpoint, or BullMQ's retry of a run that threw): it comes back within an attempt timeout. A
   * delayed job that never ran and is due later is not (a resend made the delivery due now, and the resend's own job
   * was lost).
   */
  private async willRun(delivery: DueDelivery): Promise<boolean> {
    const attempt = attemptJobId(delivery);
    if (await this.jobWillRun(attempt, delivery)) return true;
    const tagged = this.tagged.latest(attempt);
    return tagged !== undefined && (await this.jobWillRun(tagged, delivery));
  }

  private async jobWillRun(jobId: string, delivery: DueDelivery): Promise<boolean> {
    const job = await this.queue.getJob(jobId);
    if (!job) return false;
    const state = await job.getState();
    if (!LIVE_STATES.has(state)) return false;
    if (state !== 'delayed' || job.processedOn) return true;
    return job.timestamp + (job.delay ?? 0) <= new Date(delivery.next_attempt_at).getTime() + DUE_SLACK_MS;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }
}

/** The id of the job that makes the delivery's attempt when it is due: `<delivery>.<attempt>`. */
const attemptJobId = (delivery: Pick<DueDelivery, 'id' | 'attempt'>): string => `${delivery.id}.${delivery.attempt}`;
