import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { type Link, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { signatureHeaders, WebhookDeliveryStatus } from '@pp/contracts';
import { retriedWithin } from '@pp/kernel';
import { bullWorkerConnection, CONFIG, contextOf, JsonLogger, jobSpanPlacement, keptOrNewRequestId, linksTo, queuePrefix, Batcher, requestContext } from '@pp/platform';
import { DelayedError, type Job, Worker } from 'bullmq';
import { EndpointSecrets } from '../endpoints/endpoint-secrets';
import { sendWebhook, type WebhookResponse } from '../network/webhook-sender';
import { retryScheduleMs, type WebhooksConfig } from '../webhooks.config';
import type { AttemptOrigin } from './attempt-origin';
import { AttemptPlaces } from './attempt-places';
import { notSentBecause } from './delivery-target.policy';
import { DeliveryMetrics } from './delivery.metrics';
import { type ClaimedAttempt, type Completion, type CompletionOutcome, DeliveryRepository, type DueDelivery, type IntakeClaim, type RecordedEvent } from './delivery.repository';
import { type DeliveryJob, DeliveryQueue, WebhookQueue } from './delivery.queue';
import { HeldAttempts } from './held-attempts';
import { dueTimeOf, timesHeld } from './job-history';
import { type GatePass, SlowEndpointGate } from './slow-endpoint-gate';
import { decideAfterAttempt, type RetryPolicy, streakGapMs, waitAfterStallMs } from './retry.decider';

/** How long a claimed attempt is reserved: twice its timeout plus a second, then another replica may take over. */
const leaseMs = (timeoutMs: number): number => 2 * timeoutMs + 1000;

const tracer = trace.getTracer('pp-webhooks');

/** A queued job's attempt on its way to a claim, and what the claim answered for it. */
interface QueuedClaim {
  wanted: { id: string; attempt: number };
  claim?: ClaimedAttempt;
}

/** First attempts of one event, with its origin: the context that consumed it (their spans' parent) and its request. */
export interface AttemptGroup extends AttemptOrigin {
  due: DueDelivery[];
}

/** Tries of one batch of outcomes: 200 ms apart, then 400, … up to a second, while the deliveries' leases last. */
const OUTCOME_WRITE_WAIT_MS = 200;
/**
 * No try of an outcome's write starts in the last 2 s of its delivery's lease (counted from the claim's leaseFrom): a
 * try needs time to finish (its connection's acquire bound is 3 s, but a failover refuses at once).
 */
const OUTCOME_WRITE_MARGIN_MS = 2000;

/** A completion with the time (epoch ms) after which no try of its write may start: its lease's end, less the margin. */
type TimedCompletion = Completion & { writeBy: number };

/**
 * Makes delivery attempts: claim in Postgres, POST the stored bytes with
 * fresh signatures, record the outcome and queue the next attempt. A job
 * whose claim fails (another replica, a stale duplicate) does nothing; one
 * whose endpoint was deleted or disabled since closes the delivery unsent
 * (delivery-target.policy.ts).
 */
@Injectable()
export class DeliveryAttemptJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private worker?: Worker<DeliveryJob>;
  private readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly policy: RetryPolicy;
  private readonly leaseMs: number;
  /** A stalled attempt is retried on the schedule, as its failure would have been. */
  private readonly waitAfterStall = (attempt: number): number => waitAfterStallMs(attempt, this.policy);
  /** Attempts in flight, made at once (startNow, recordAndStart) or queued (process), claimed or being claimed. */
  private readonly places: AttemptPlaces;
  /** Keeps slow endpoints from holding those places, and the queue's workers. */
  private readonly gate: SlowEndpointGate;
  /** Queued attempts held back by the gate, brought back as their endpoint's places free. */
  private readonly held = new HeldAttempts();
  private readonly immediate = new Set<Promise<void>>();
  /**
   * Outcomes that finish together are recorded together: one statement and one commit (docs/PERFORMANCE.md). Each
   * completion answers whether a resend asked for meanwhile reopened its delivery, and whether it disabled its
   * endpoint (only the statement that did can say: the endpoint may be disabled already). A write that fails (a Postgres
   * blip, a failover) is tried again while every lease of the batch lasts (each completion's `writeBy`; batches wait
   * for each other, so a later one has less of its leases left): given up, its deliveries would stay leased and the
   * sweeper would send them again, a second POST of what the endpoint already took. The statement is one transaction: a failed one recorded nothing, and one
   * that committed with its answer lost finds its deliveries released on the retry and answers them not reopened (a
   * resend asked for during the attempt then waits for the sweeper rather than being queued at once).
   */
  private readonly outcomes = new Batcher<TimedCompletion, CompletionOutcome>((completions) =>
    retriedWithin(
      () => this.deliveries.completeAll(completions, this.owner, this.policy.streakGapMs),
      Math.min(...completions.map((completion) => completion.writeBy)) - Date.now(),
      OUTCOME_WRITE_WAIT_MS,
    ),
  );
  /** Queued attempts that start together are claimed together: one statement for many jobs. */
  private readonly queuedClaims = new Batcher<QueuedClaim>((batch) => this.claimQueued(batch));
  /** Attempts held back together move their deliveries' due times in one statement. */
  private readonly heldBack = new Batcher<{ id: string; attempt: number; until: Date }>((held) => this.deliveries.holdBack(held));

  constructor(
    @Inject(CONFIG) private readonly config: WebhooksConfig,
    private readonly deliveries: DeliveryRepository,
    private readonly queue: DeliveryQueue,
    private readonly secrets: EndpointSecrets,
    private readonly logger: JsonLogger,
    private readonly metrics: DeliveryMetrics,
  ) {
    const scheduleMs = retryScheduleMs(config);
    this.policy = { scheduleMs, disableAfterMs: config.WEBHOOK_DISABLE_AFTER_FAILING_SECONDS * 1000, streakGapMs: streakGapMs(scheduleMs) };
    this.leaseMs = leaseMs(config.WEBHOOK_ATTEMPT_TIMEOUT_MS);
    this.places = new AttemptPlaces(config.WEBHOOK_DELIVERY_CONCURRENCY);
    this.gate = new SlowEndpointGate({ places: config.WEBHOOK_DELIVERY_CONCURRENCY, attemptTimeoutMs: config.WEBHOOK_ATTEMPT_TIMEOUT_MS }, (endpointId) =>
      this.bringBack(endpointId),
    );
  }

  onApplicationBootstrap(): void {
    this.worker = new Worker<DeliveryJob>(WebhookQueue.Delivery, (job, token) => this.process(job, token), {
      connection: bullWorkerConnection(this.config.REDIS_URL),
      prefix: queuePrefix(this.config.PP_NAMESPACE),
      concurrency: this.config.WEBHOOK_DELIVERY_CONCURRENCY,
      lockDuration: Math.max(30_000, this.config.WEBHOOK_ATTEMPT_TIMEOUT_MS * 2),
    });
    this.worker.on('error', (error) => this.logger.warn('delivery worker error', { error: error.message }));
  }

  /**
   * Before any provider's shutdown hook, the queue's close among them (Nest runs those side by side): the attempts
   * under way finish and queue their next attempts while the queue is still open.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.places.close();
    await Promise.all([this.worker?.close(), ...this.immediate]);
  }

  /**
   * Makes due first attempts right away, in this process, without a queue
   * round trip (docs/PERFORMANCE.md), as many as fit under
   * WEBHOOK_DELIVERY_CONCURRENCY such attempts running, all claimed in one
   * round trip; answers the others, which the caller queues. Each group's
   * attempts are traced as children of its `queuedBy` (the consumption of its
   * event). The claim in Postgres still makes each exactly once. If this
   * process dies mid-attempt, the lease expires and the sweeper queues the
   * attempt again (WEBHOOK_SWEEP_INTERVAL_MS), so nothing is lost and no
   * wake-up per delivery waits in Redis. Attempts to slow endpoints are
   * answered too: they take their turn through the queue (process).
   */
  startNow(groups: readonly AttemptGroup[]): AttemptGroup[] {
    let room = this.places.free;
    const now = Date.now();
    const taken: AttemptGroup[] = [];
    const left: AttemptGroup[] = [];
    for (const { due, queuedBy, requestId } of groups) {
      const fast: DueDelivery[] = [];
      const slow: DueDelivery[] = [];
      for (const delivery of due) (this.gate.isSlow(delivery.endpoint_id, now) ? slow : fast).push(delivery);
      const count = Math.min(room, fast.length);
      if (count > 0) taken.push({ due: fast.slice(0, count), queuedBy, requestId });
      if (count < due.length) left.push({ due: [...fast.slice(count), ...slow], queuedBy, requestId });
      room -= count;
    }
    if (taken.length === 0) return left;
    this.places.take(taken.reduce((sum, group) => sum + group.due.length, 0));
    this.track(
      this.runAll(taken).catch((error: Error) =>
        this.logger.warn('claiming immediate delivery attempts failed; the sweeper will queue them again', { error: error.message }),
      ),
    );
    return left;
  }

  /**
   * Resolves once half this replica's places for attempts made at once are
   * free, or after WEBHOOK_BACKLOG_WAIT_MS: the event consumer waits here
   * before it records an event (AttemptPlaces).
   */
  whenRoom(): Promise<void> {
    return this.places.whenHalfFree(this.config.WEBHOOK_BACKLOG_WAIT_MS);
  }

  /** Keeps `running` until it ends, so shutdown waits for it. */
  private track(running: Promise<void>): void {
    const tracked: Promise<void> = running.finally(() => this.immediate.delete(tracked));
    this.immediate.add(tracked);
  }

  /**
   * Records events through `record`, whose statement also claims their first
   * attempts due now, as many as fit under WEBHOOK_DELIVERY_CONCURRENCY
   * (DeliveryRepository.recordEvents), none to a slow endpoint: an event's
   * intake and the start of its first attempts are one round trip. Makes those it claimed at once,
   * each under its event's origin (`origins`, in the events' order), and answers what was recorded.
   */
  async recordAndStart(origins: readonly AttemptOrigin[], record: (claim: IntakeClaim) => Promise<RecordedEvent[]>): Promise<RecordedEvent[]> {
    const room = this.places.free;
    this.places.take(room);
    let recorded: RecordedEvent[] = [];
    try {
      const now = new Date();
      recorded = await record({ now, room, slowEndpoints: this.gate.slowEndpoints(now.getTime()), owner: this.owner, leaseMs: this.leaseMs, notSentBecause, waitAfterStall: this.waitAfterStall });
    } finally {
      this.places.release(room - recorded.reduce((sum, event) => sum + event.claimed.length, 0)); // places not used
    }
    const claims = recorded.flatMap((event, i) => event.claimed.map((claim) => ({ claim, origin: origins[i] })));
    if (claims.length > 0) this.track(this.makeAll(claims));
    return recorded;
  }

  /**
   * A queued attempt: claimed and made once it has a place (AttemptPlaces,
   * shared with the attempts made at once), unless its endpoint is slow and
   * holds its share of places (slow-endpoint-gate.ts). Then the job is put
   * back unclaimed, so it spends no attempt, until a place of that
   * endpoint should be free; Postgres still holds the delivery, due, should
   * Redis lose the job. One held back for longer than an attempt timeout
   * past its due time is made without being sent, recorded failed and
   * retried on the schedule, as it would have been had it been sent and
   * timed out: a dead endpoint's backlog follows the schedule instead of
   * coming back every few seconds. All of it under the job's request id.
   */
  process(job: Job<DeliveryJob>, token?: string): Promise<void> {
    const origin: AttemptOrigin = { queuedBy: contextOf(job.data.trace), requestId: keptOrNewRequestId(job.data.request_id) };
    return requestContext.run({ requestId: origin.requestId }, () => this.processIn(job, origin, token));
  }

  private async processIn(job: Job<DeliveryJob>, origin: AttemptOrigin, token: string | undefined): Promise<void> {
    const endpointId = job.data.endpoint_id;
    if (endpointId !== undefined) this.held.forget(endpointId, job.id);
    // A place first, before the claim starts its lease, and then the gate, which judges the endpoint as it is by then.
    if (!(await this.places.takeOne())) return this.putBack(job, token);
    const pass = endpointId === undefined ? undefined : this.gate.tryEnter(endpointId, Date.now());
    const unsent = endpointId !== undefined && !pass;
    if (unsent && !this.heldTooLong(job)) {
      this.places.release(1);
      return this.holdBack(job, endpointId, token);
    }
    try {
      const queued: QueuedClaim = { wanted: { id: job.data.delivery_id, attempt: job.data.attempt } };
      await this.queuedClaims.add(queued);
      if (queued.claim) await this.run(queued.claim, origin, unsent ? NOT_SENT_WHILE_SLOW : pass);
    } finally {
      pass?.leave();
      this.places.release(1);
    }
  }

  /** Shutting down, the job found no place: it goes back to the queue unclaimed, for another replica (or the next process). */
  private async putBack(job: Job<DeliveryJob>, token: string | undefined): Promise<never> {
    await job.moveToDelayed(Date.now(), token);
    throw new DelayedError();
  }

  /** Whether the job was held back before and is now an attempt timeout past its due time: it is then made unsent. */
  private heldTooLong(job: Job<DeliveryJob>): boolean {
    return timesHeld(job) > 0 && Date.now() - dueTimeOf(job) > this.config.WEBHOOK_ATTEMPT_TIMEOUT_MS;
  }

  /**
   * Puts the job back for later, spread a little so those held back together
   * do not come back together. The delivery's due time moves with it first,
   * so the sweeper does not queue a copy meanwhile; should that write fail,
   * a copy only meets the same gate.
   */
  private async holdBack(job: Job<DeliveryJob>, endpointId: string, token: string | undefined): Promise<never> {
    const until = Date.now() + Math.round(this.gate.retryAfterMs(endpointId, Date.now()) * (1 + Math.random() / 4));
    this.metrics.held();
    await this.heldBack
      .add({ id: job.data.delivery_id, attempt: job.data.attempt, until: new Date(until) })
      .catch((error: Error) => this.logger.warn('could not move a held-back attempt; the sweeper may queue a copy', { delivery_id: job.data.delivery_id, error: error.message }));
    await job.moveToDelayed(until, token);
    this.held.hold(endpointId, job, until, Date.now());
    this.bringBack(endpointId); // its last place may have freed while it was being put back
    throw new DelayedError();
  }

  /**
   * An attempt to the endpoint ended: if that may have freed a slow place
   * (the endpoint is slow, or its jobs are held here), brings back as many
   * held attempts as may run now, those of the endpoint served longest ago
   * that has room. A fast endpoint's attempt ending frees no slow place,
   * so it costs a lookup or two.
   */
  private bringBack(endpointId: string): void {
    if (this.held.isEmpty) return;
    const now = Date.now();
    if (!this.held.holds(endpointId) && !this.gate.isSlow(endpointId, now)) return;
    const next = this.gate.firstWithRoom(this.held.endpoints(), now);
    if (!next) return;
    for (const job of this.held.take(next.endpointId, next.room, now)) {
      job.promote().catch(() => undefined); // it runs already, at its own time, or is gone: it needs no bringing back
    }
  }

  /** Claims the attempts of queued jobs that start together in one statement; each job learns whether it won its own. */
  private async claimQueued(batch: QueuedClaim[]): Promise<void> {
    const claims = await this.deliveries.claimAll(
      batch.map((queued) => queued.wanted),
      this.owner,
      this.leaseMs,
      notSentBecause,
      this.waitAfterStall,
    );
    const won = new Map(claims.map((claim) => [`${claim.deliveryId}.${claim.attempt}`, claim]));
    for (const queued of batch) {
      const key = `${queued.wanted.id}.${queued.wanted.attempt}`;
      queued.claim = won.get(key);
      won.delete(key); // two jobs for one attempt (a swept copy): only the first makes it
    }
  }

  /** Claims the groups' attempts in one round trip, then makes those it won side by side; each frees its place when done. */
  private async runAll(taken: readonly AttemptGroup[]): Promise<void> {
    const wanted = taken.flatMap((group) => group.due);
    const origins = new Map<string, AttemptOrigin>();
    for (const group of taken) for (const delivery of group.due) origins.set(delivery.id, group);
    let claims: ClaimedAttempt[] = [];
    try {
      claims = await this.deliveries.claimAll(wanted, this.owner, this.leaseMs, notSentBecause, this.waitAfterStall);
    } finally {
      this.places.release(wanted.length - claims.length); // the places of attempts not won (all of them if the claim failed)
    }
    // A claim answers only attempts it was asked for, each of a group here.
    await this.makeAll(claims.map((claim) => ({ claim, origin: origins.get(claim.deliveryId)! })));
  }

  /** Makes claimed attempts side by side, each under its origin's request id; each frees its place when done. */
  private async makeAll(attempts: readonly { claim: ClaimedAttempt; origin: AttemptOrigin }[]): Promise<void> {
    await Promise.all(
      attempts.map(({ claim, origin }) =>
        requestContext.run({ requestId: origin.requestId }, () =>
          this.run(claim, origin)
            .catch((error: Error) => this.logger.warn('immediate delivery attempt failed; the sweeper will queue it again', { delivery_id: claim.deliveryId, error: error.message }))
            .finally(() => this.places.release(1)),
        ),
      ),
    );
  }

  /**
   * One span per attempt. The first attempt is a child of the origin's
   * `queuedBy` (the event's consumption, whether it runs at once or from the
   * queue), so it is in the trace of the request that caused the event; a
   * later attempt starts a trace of its own, linked to that request and to
   * the attempt before it, so retries over days never grow the request's
   * trace. Either way it runs under the origin's request id, which the next
   * attempt it queues carries on.
   */
  private async run(claim: ClaimedAttempt, origin: AttemptOrigin, given?: GatePass | typeof NOT_SENT_WHILE_SLOW): Promise<void> {
    // An attempt not sent takes no place; any other is counted from its start (a claim at intake or at once enters here).
    const pass = given ?? this.gate.enter(claim.endpoint.id, Date.now());
    const { parent, links } = jobSpanPlacement(origin.queuedBy, claim.attempt === 1);
    await tracer.startActiveSpan(
      `webhook ${claim.event.type}`,
      { kind: SpanKind.CLIENT, links: [...causeOf(claim), ...links], attributes: attributes(claim) },
      parent,
      // The span's context is the parent's (a retry's has no request in it): the request id is entered again inside.
      (span) =>
        requestContext.run({ requestId: origin.requestId }, async () => {
          try {
            await this.attempt(claim, pass);
          } catch (error) {
            span.setStatus({ code: SpanStatusCode.ERROR });
            throw error;
          } finally {
            if (pass !== NOT_SENT_WHILE_SLOW) pass.leave();
            span.end();
          }
        }),
    );
  }

  /**
   * Sends (unless held back too long, or unsignable), then gives the endpoint's place back, with the time it took,
   * before the outcome is recorded. An attempt not sent is recorded failed all the same, and retried on the schedule.
   */
  private async attempt(claim: ClaimedAttempt, pass: GatePass | typeof NOT_SENT_WHILE_SLOW): Promise<void> {
    const leaseEnd = claim.leaseFrom + this.leaseMs;
    const writeBy = leaseEnd - OUTCOME_WRITE_MARGIN_MS;
    const started = performance.now();
    const signed =
      pass === NOT_SENT_WHILE_SLOW ? notSentWhileSlow()
      : this.endsAfter(leaseEnd) ? notSentLate(claim, this.logger)
      : this.signed(claim, new Date());
    const unsent = pass === NOT_SENT_WHILE_SLOW || !('headers' in signed);
    const response = 'headers' in signed ? await this.send(claim, pass as GatePass, signed) : signed;
    const tookMs = performance.now() - started;
    if (pass !== NOT_SENT_WHILE_SLOW) pass.leave(unsent ? 0 : tookMs);
    const streak = { failingSince: claim.endpoint.failing_since, lastFailureAt: claim.endpoint.last_failure_at };
    const decided = decideAfterAttempt(response, claim.attempt, streak, this.policy, new Date());
    // An attempt not sent says nothing of the endpoint's answers: it neither disables it nor moves its failure streak.
    const decision = unsent ? { ...decided, disableEndpoint: null } : decided;
    if (response.refusal) {
      // The attempt's log (which the merchant sees) says only that the host is not public; why is for the operators.
      this.logger.info('webhook attempt not sent: host refused', { delivery_id: claim.deliveryId, endpoint_id: claim.endpoint.id, reason: response.refusal });
    }
    if (unsent) this.metrics.notSent(decision);
    else this.metrics.attempted(decision, response.httpStatus, tookMs);
    trace.getActiveSpan()?.setAttributes({
      'http.response.status_code': response.httpStatus ?? 0,
      'webhook.delivery_status': decision.status,
    });
    const outcome = await this.outcomes.add({ claim, result: response, decision, unsent, writeBy });
    // Counted and said by the one completion whose write disabled the endpoint: attempts in flight together, or an
    // endpoint already disabled, would otherwise count one disabling many times.
    if (outcome.disabledEndpoint) {
      this.metrics.endpointDisabled(response.httpStatus);
      this.logger.warn('webhook endpoint disabled', { endpoint_id: claim.endpoint.id, reason: decision.disableEndpoint });
    }
    if (outcome.reopened) {
      await this.queue.enqueueOrLeaveToSweeper([{ id: claim.deliveryId, attempt: claim.attempt + 1, next_attempt_at: new Date(), endpoint_id: claim.endpoint.id }]);
    } else if (decision.status === WebhookDeliveryStatus.Failed && decision.nextAttemptAt) {
      await this.queue.enqueueOrLeaveToSweeper([{ id: claim.deliveryId, attempt: claim.attempt + 1, next_attempt_at: decision.nextAttemptAt, endpoint_id: claim.endpoint.id }]);
    }
  }

  /**
   * Whether an attempt starting now could still be under way at `leaseEnd`: its claim waited (on a lock, on the
   * closes of its batch, on a stalled process) so long that another replica may take the delivery over while it is
   * sent, and the endpoint could get it twice.
   */
  private endsAfter(leaseEnd: number): boolean {
    return Date.now() + this.config.WEBHOOK_ATTEMPT_TIMEOUT_MS > leaseEnd;
  }

  /**
   * The stored bytes with fresh signatures at `now`; or, when a signing secret does not open (a row sealed under a
   * key this replica does not hold: a WEBHOOK_SECRET_KEYS rotation out of order), the failure an attempt not sent
   * records. Thrown, the attempt would end with no outcome, to be found later as a stopped worker's.
   */
  private signed(claim: ClaimedAttempt, now: Date): SignedDelivery | WebhookResponse {
    const body = Buffer.from(claim.event.body, 'utf8');
    try {
      return { body, now, headers: signatureHeaders(claim.event.id, body, this.secrets.signingSecrets(claim.endpoint, now), Math.floor(now.getTime() / 1000)) };
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      this.logger.error('webhook attempt not sent: a signing secret did not open', { delivery_id: claim.deliveryId, endpoint_id: claim.endpoint.id, error: why });
      return { httpStatus: null, retryAfterMs: null, latencyMs: 0, error: NOT_SENT_UNSIGNABLE_ERROR };
    }
  }

  /** POSTs the signed bytes; the pass counts the endpoint's request from here. */
  private send(claim: ClaimedAttempt, pass: GatePass, signed: SignedDelivery): Promise<WebhookResponse> {
    pass.sending(signed.now.getTime());
    return sendWebhook({
      url: claim.endpoint.url,
      body: signed.body,
      headers: signed.headers,
      timeoutMs: this.config.WEBHOOK_ATTEMPT_TIMEOUT_MS,
      allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE_URLS,
    });
  }
}

/** A queued attempt held back for longer than an attempt timeout: made without being sent (process). */
const NOT_SENT_WHILE_SLOW = 'not sent while slow';

/** The error an attempt not sent records (notSentWhileSlow). */
export const NOT_SENT_WHILE_SLOW_ERROR = 'not sent: the endpoint had not answered its earlier attempts in time, and this one waited an attempt timeout for a place';

/** The error an attempt whose signing secret did not open records (the operators' log says which key). */
export const NOT_SENT_UNSIGNABLE_ERROR = 'not sent: the endpoint’s signing secret could not be opened; the platform’s operators have been told';

/** The error an attempt that could no longer end within its claim's lease records (notSentLate). */
export const NOT_SENT_LATE_ERROR = 'not sent: it could not start in time to end within its claim; it is retried on the schedule';

/** A delivery ready to send: its bytes, and their signature headers made at `now`. */
interface SignedDelivery {
  body: Buffer;
  headers: Record<string, string>;
  now: Date;
}

/** What an attempt not sent records: a failure, with no HTTP answer, retried on the schedule. */
const notSentWhileSlow = (): WebhookResponse => ({ httpStatus: null, retryAfterMs: null, latencyMs: 0, error: NOT_SENT_WHILE_SLOW_ERROR });

/** What an attempt started too late to end within its lease records: a failure, retried on the schedule. */
function notSentLate(claim: ClaimedAttempt, logger: JsonLogger): WebhookResponse {
  logger.warn('webhook attempt not sent: its claim would end before it could', { delivery_id: claim.deliveryId, attempt: claim.attempt, claimed_ms_ago: Date.now() - claim.leaseFrom });
  return { httpStatus: null, retryAfterMs: null, latencyMs: 0, error: NOT_SENT_LATE_ERROR };
}

/** A span link to the append that stored the event (its context is kept in the event's metadata). */
const causeOf = (claim: ClaimedAttempt): Link[] => linksTo(contextOf(claim.event.trace));

const attributes = (claim: ClaimedAttempt) => ({
  'webhook.event_id': claim.event.id,
  'webhook.endpoint_id': claim.endpoint.id,
  'webhook.attempt': claim.attempt,
});
