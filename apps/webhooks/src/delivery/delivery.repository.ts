import { Injectable } from '@nestjs/common';
import { ALL_EVENTS, IDEMPOTENCY_RETENTION_SECONDS, type IdempotencyToken, WebhookDeliveryStatus } from '@pp/contracts';
import { storableText } from '@pp/kernel';
import { JsonLogger } from '@pp/platform';
import { DataSource } from 'typeorm';
import { forgetExpiredRecord, pastRetention, pruneExpiredRecords } from '../database/idempotency-records';
import type { EndpointRow, Scope } from '../endpoints/endpoint.repository';
import type { DeliveryAttemptRow } from './delivery-attempt.view';
import { endpointChanges } from './endpoint-changes';
import type { AttemptDecision } from './retry.decider';

/** A merchant-visible event as the webhooks service keeps it: the body is the exact text that is signed and sent. */
export interface WebhookEventRecord {
  id: string;
  merchant_id: string;
  livemode: boolean;
  type: string;
  body: string;
  trace: Record<string, string> | null;
  created_at: string;
}

/** An event to record, with the time its first attempts are due. */
export interface EventToRecord {
  event: WebhookEventRecord;
  firstAttemptAt: Date;
}

/**
 * How long after an endpoint's time an event can have been taken in without
 * seeing it: the endpoint's time is read at its insert, and its creation
 * commits within that statement's limit (30 s). Bounds the catch-up's read
 * to the events of that span.
 */
const MISSED_EVENTS_SPAN_MS = 60_000;
/**
 * How long after its time an endpoint's catch-up is settled: by then every
 * intake that could have missed it (one that began before the creation
 * committed) has committed too, within its own statement limit.
 */
export const CATCH_UP_SETTLES_MS = 120_000;

/** A delivery whose next attempt can be queued: job `<id>.<attempt>`. */
export interface DueDelivery {
  id: string;
  /** Number of the attempt to make next. */
  attempt: number;
  next_attempt_at: Date;
  /** Whom it goes to: a slow endpoint's attempts wait their turn (slow-endpoint-gate.ts). */
  endpoint_id: string;
}

/** What an attempt needs, claimed under a lease so no other replica makes the same attempt. */
export interface ClaimedAttempt {
  deliveryId: string;
  attempt: number;
  /**
   * This process's clock (epoch ms) just before the claiming statement was sent: its lease runs from the statement's
   * now(), no earlier, so it lasts at least until leaseFrom + the lease, however long the statement waited on a lock.
   */
  leaseFrom: number;
  event: Pick<WebhookEventRecord, 'id' | 'type' | 'body' | 'trace'>;
  endpoint: EndpointRow;
}

/** The claim's answer: the endpoint's row as it is, with the event's columns beside it. */
type ClaimedRow = EndpointRow & {
  delivery_id: string;
  delivery_attempt: number;
  event_id: string;
  event_type: string;
  event_body: string;
  event_trace: WebhookEventRecord['trace'];
};

/**
 * How long after its lease ends a delivery whose attempt `attempt` recorded
 * no outcome (its worker stopped) waits before the sweeper takes it again.
 */
export type WaitAfterStall = (attempt: number) => number;

/**
 * First attempts the intake may claim as it records their events (recordEvents):
 * up to `room` due at `now`, none to `slowEndpoints`, leased to `owner` for
 * `leaseMs`; `notSentBecause` and `waitAfterStall` as for claimAll.
 */
export interface IntakeClaim {
  now: Date;
  room: number;
  slowEndpoints: readonly string[];
  owner: string | null;
  leaseMs: number;
  notSentBecause: (endpoint: EndpointRow) => string | null;
  waitAfterStall: WaitAfterStall;
}

/** Recording without claiming anything. */
const NO_CLAIM: IntakeClaim = { now: new Date(0), room: 0, slowEndpoints: [], owner: null, leaseMs: 0, notSentBecause: () => null, waitAfterStall: () => 0 };

/** What recording one event answered: the first attempts it claimed, and its deliveries not attempted yet. */
export interface RecordedEvent {
  claimed: ClaimedAttempt[];
  due: DueDelivery[];
}

/** recordEvents' answer: a delivery, with its claim's columns (null unless it was claimed). */
type IntakeRow = Omit<ClaimedRow, 'delivery_attempt'> & {
  delivery_attempts: number;
  delivery_next_attempt_at: Date;
  delivery_endpoint_id: string;
};

/** One finished attempt: what the endpoint answered and what follows. */
export interface Completion {
  claim: ClaimedAttempt;
  result: AttemptResult;
  decision: AttemptDecision;
  /** Made without being sent (held back too long for a slow endpoint): says nothing of the endpoint's failure streak. */
  unsent?: boolean;
}

export interface AttemptResult {
  httpStatus: number | null;
  latencyMs: number;
  error: string | null;
}

/** What recording one completion did beyond it (completeAll). */
export interface CompletionOutcome {
  /** A resend asked for while the attempt was in flight keeps its delivery open and due: the caller queues it. */
  reopened: boolean;
  /** This completion disabled its endpoint: only the first one of the batch to ask, and only if the endpoint's row changed. */
  disabledEndpoint: boolean;
}

/** An earlier resend with an Idempotency-Key: the request it was, and what it answered. */
export interface ResendRequest {
  fingerprint: string;
  event_id: string;
  webhook_ids: string[];
}

const OPEN = `('${WebhookDeliveryStatus.Pending}', '${WebhookDeliveryStatus.Failed}')`;

/**
 * The attempts of one event that GET /v1/events/:id shows, the newest: each resend adds one per endpoint (up to
 * MAX_WEBHOOK_ENDPOINTS), and the answer crosses NATS, whose max_payload (1 MB) would refuse it whole past some
 * 400 lines with 2 KB URLs. 160 lines are ten attempts for each of 16 endpoints and, at some 2.7 KB each at worst
 * (a 2 KB URL, a 400-character error), under half of max_payload, with the PENDING lines of deliveries not attempted
 * yet besides (the default schedule makes 8).
 */
export const MAX_EVENT_ATTEMPTS_LISTED = 160;

/**
 * completeAll's test on an endpoint's row that a failure starts a new streak:
 * none is running, or its latest failure is older than the gap ($14, in
 * milliseconds), which a delivery that keeps failing never leaves.
 */
const NEW_STREAK = `(failing_since IS NULL OR last_failure_at IS NULL OR last_failure_at < now() - $14 * interval '1 millisecond')`;

/**
 * Deliveries and their attempts in Postgres: the source of truth for what
 * must still be sent (BullMQ only holds wake-ups). Each attempt is claimed by
 * bumping `attempts` from the number the job expects while no lease is held;
 * the row lock of that UPDATE lets exactly one replica make a given attempt.
 */
@Injectable()
export class DeliveryRepository {
  constructor(
    private readonly db: DataSource,
    private readonly logger: JsonLogger,
  ) {}

  /**
   * Stores each event once and a delivery for each enabled endpoint of the
   * same merchant and mode subscribed to its type (idempotent: a redelivered
   * message adds nothing), all in one statement however many events there
   * are. The same statement claims, for `claim.owner`, up to `claim.room` of
   * the new deliveries whose first attempt is due at `claim.now` and whose
   * endpoint is not among `claim.slowEndpoints`, as claimAll would: the intake of an event and the start of its first attempts are one
   * round trip. Answers, per event in the order given, the attempts it
   * claimed and its deliveries not attempted yet; an event given twice gets
   * them once, at its first place.
   */
  async recordEvents(events: readonly EventToRecord[], claim: IntakeClaim = NO_CLAIM): Promise<RecordedEvent[]> {
    if (events.length === 0) return [];
    const column = <T>(pick: (toRecord: EventToRecord) => T): T[] => events.map(pick);
    // One statement, so one round trip and one implicit transaction. Its parts share one snapshot: the deliveries are
    // inserted from the messages' own fields (the event rows inserted beside them are not visible to them; the foreign
    // keys are checked at the end of the statement, when they are), those claimed already leased with their first
    // attempt recorded PENDING, and the answer is the deliveries inserted now (RETURNING) plus those a previous
    // delivery of a message recorded that are still not attempted. A copy of a message handled at the same moment
    // elsewhere waits on the other copy's rows and answers none of them: the copy that inserted them starts them (or,
    // should it stop first, the sweeper does). The claimed ones come with their endpoint's row (ep.*) and their
    // event's columns under prefixed names, as claimAll answers them.
    const leaseFrom = Date.now();
    const rows: IntakeRow[] = await this.db.query(
      `WITH given AS (
         SELECT DISTINCT ON (id) *
           FROM unnest($1::text[], $2::text[], $3::bool[], $4::text[], $5::text[], $6::jsonb[], $7::timestamptz[], $8::timestamptz[])
             AS g (id, merchant_id, livemode, type, body, trace, created_at, first_attempt_at)
       ), event AS (
         INSERT INTO webhooks.events (id, merchant_id, livemode, type, body, trace, created_at)
         SELECT id, merchant_id, livemode, type, body, trace, created_at FROM given
         ON CONFLICT (id) DO NOTHING
         RETURNING id
       ), matched AS (
         SELECT g.id AS event_id, ep.id AS endpoint_id, g.first_attempt_at,
                g.first_attempt_at <= $9 AND ep.id <> ALL ($14::text[])
                AND row_number() OVER (ORDER BY (g.first_attempt_at <= $9 AND ep.id <> ALL ($14::text[])) DESC, g.id, ep.id) <= $10 AS claim
           FROM given g
           -- Only an event recorded now finds its endpoints: one read again (an acknowledgement lost, the durable
           -- consumer made anew) was matched when first recorded, and an endpoint enabled since must not get it.
           JOIN event e ON e.id = g.id
           JOIN webhooks.endpoints ep
             ON ep.merchant_id = g.merchant_id AND ep.livemode = g.livemode AND ep.status = 'enabled' AND ep.deleted_at IS NULL
            AND ep.created_at <= g.created_at
            AND ('${ALL_EVENTS}' = ANY (ep.enabled_events) OR g.type = ANY (ep.enabled_events))
       ), added AS (
         INSERT INTO webhooks.deliveries (id, event_id, endpoint_id, status, next_attempt_at, attempts, lease_owner, lease_expires_at)
         SELECT gen_random_uuid()::text, m.event_id, m.endpoint_id, '${WebhookDeliveryStatus.Pending}',
                -- A claimed attempt is due again only if its worker stops: after its lease and the wait a failure would have.
                CASE WHEN m.claim THEN now() + ($12::bigint + $13::bigint) * interval '1 millisecond' ELSE m.first_attempt_at END,
                CASE WHEN m.claim THEN 1 ELSE 0 END,
                CASE WHEN m.claim THEN $11 END,
                CASE WHEN m.claim THEN now() + $12 * interval '1 millisecond' END
           FROM matched m
         ON CONFLICT (event_id, endpoint_id) DO NOTHING
         RETURNING event_id, id, attempts, next_attempt_at, endpoint_id
       ), made AS (
         INSERT INTO webhooks.delivery_attempts (delivery_id, event_id, endpoint_id, url, attempt, delivery_status)
         SELECT added.id, added.event_id, ep.id, ep.url, 1, '${WebhookDeliveryStatus.Pending}'
           FROM added JOIN webhooks.endpoints ep ON ep.id = added.endpoint_id
          WHERE added.attempts = 1
       ), recorded AS (
         SELECT event_id, id, attempts, next_attempt_at, endpoint_id FROM added
         UNION ALL
         SELECT d.event_id, d.id, d.attempts, d.next_attempt_at, d.endpoint_id FROM webhooks.deliveries d JOIN given g ON d.event_id = g.id
          WHERE d.attempts = 0 AND d.status = '${WebhookDeliveryStatus.Pending}'
       )
       SELECT r.id AS delivery_id, r.attempts AS delivery_attempts, r.next_attempt_at AS delivery_next_attempt_at,
              r.endpoint_id AS delivery_endpoint_id, g.id AS event_id, g.type AS event_type, g.body AS event_body, g.trace AS event_trace, ep.*
         FROM recorded r
         JOIN given g ON g.id = r.event_id
         LEFT JOIN webhooks.endpoints ep ON ep.id = r.endpoint_id AND r.attempts = 1`,
      [
        column(({ event }) => event.id),
        column(({ event }) => event.merchant_id),
        column(({ event }) => event.livemode),
        column(({ event }) => event.type),
        column(({ event }) => event.body),
        column(({ event }) => (event.trace === null ? null : JSON.stringify(event.trace))),
        column(({ event }) => event.created_at),
        column(({ firstAttemptAt }) => firstAttemptAt),
        claim.now,
        claim.room,
        claim.owner,
        claim.leaseMs,
        claim.waitAfterStall(1),
        claim.slowEndpoints,
      ],
    );
    const byEvent = new Map<string, RecordedEvent>();
    const claimedRows: Array<{ recorded: RecordedEvent; row: ClaimedRow }> = [];
    for (const { delivery_attempts, delivery_next_attempt_at, delivery_endpoint_id, ...row } of rows) {
      let recorded = byEvent.get(row.event_id);
      if (!recorded) byEvent.set(row.event_id, (recorded = { claimed: [], due: [] }));
      if (delivery_attempts === 0) recorded.due.push({ id: row.delivery_id, attempt: 1, next_attempt_at: delivery_next_attempt_at, endpoint_id: delivery_endpoint_id });
      else claimedRows.push({ recorded, row: { ...row, delivery_attempt: 1 } });
    }
    const attempts = await this.attemptsToMake(claimedRows.map(({ row }) => row), leaseFrom, claim.owner!, claim.notSentBecause);
    claimedRows.forEach(({ recorded }, i) => {
      const attempt = attempts[i];
      if (attempt) recorded.claimed.push(attempt);
    });
    return events.map(({ event }) => {
      const recorded = byEvent.get(event.id) ?? { claimed: [], due: [] };
      byEvent.delete(event.id); // a second copy in the same batch answers nothing
      return recorded;
    });
  }

  /**
   * Claims the given attempts for `owner` until the lease ends, in one round
   * trip however many there are (the first attempts of one event to all its
   * endpoints); answers those this call won. `notSentBecause` (the caller's
   * rule) is asked about each endpoint as the claim read it: a reason records
   * the attempt with it and closes the delivery without sending (closeUnsent),
   * each such close on its own (attemptsToMake). Each claimed delivery is due
   * again `waitAfterStall(attempt)` after its lease ends, which only matters
   * if its worker stops before recording the outcome (an outcome sets the
   * next attempt's time): the sweeper then retries it on the schedule, not at
   * once.
   */
  async claimAll(
    wanted: ReadonlyArray<{ id: string; attempt: number }>,
    owner: string,
    leaseMs: number,
    notSentBecause: (endpoint: EndpointRow) => string | null,
    waitAfterStall: WaitAfterStall,
  ): Promise<ClaimedAttempt[]> {
    if (wanted.length === 0) return [];
    // In id order, so two replicas claiming overlapping sets (a redelivered event) lock the rows in the same order.
    const ordered = [...wanted].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    // One statement, atomic as a whole: the claims (their row locks let one replica win each), attempts left in flight
    // by a replica that stopped marked failed (never silence), the new attempts recorded PENDING, and their events and
    // endpoints read. The sub-statements share one snapshot, so the stale-attempt UPDATE cannot see the rows inserted
    // beside it, and everything else follows the claimed rows through RETURNING. The endpoint's columns are answered
    // as they are (ep.*), the delivery's and the event's under prefixed names, so dates stay dates.
    const leaseFrom = Date.now();
    const rows: ClaimedRow[] = await this.db.query(
      `WITH wanted AS (
         SELECT * FROM unnest($1::text[], $2::int[], $5::bigint[]) AS w (id, attempt, wait_after_stall_ms)
       ), claimed AS (
         UPDATE webhooks.deliveries d
            SET attempts = d.attempts + 1, lease_owner = $3, lease_expires_at = now() + $4 * interval '1 millisecond',
                next_attempt_at = now() + ($4::bigint + wanted.wait_after_stall_ms) * interval '1 millisecond',
                resend_requested = false, updated_at = now()
           FROM wanted
          WHERE d.id = wanted.id AND d.attempts = wanted.attempt - 1 AND d.status IN ${OPEN}
            AND (d.lease_expires_at IS NULL OR d.lease_expires_at < now())
          RETURNING d.id, d.attempts AS attempt, d.event_id, d.endpoint_id
       ), stale AS (
         UPDATE webhooks.delivery_attempts a
            SET delivery_status = '${WebhookDeliveryStatus.Failed}', error_message = 'no answer recorded: the worker making this attempt stopped'
           FROM claimed
          WHERE a.delivery_id = claimed.id AND a.delivery_status = '${WebhookDeliveryStatus.Pending}'
       ), made AS (
         INSERT INTO webhooks.delivery_attempts (delivery_id, event_id, endpoint_id, url, attempt, delivery_status)
         SELECT claimed.id, claimed.event_id, ep.id, ep.url, claimed.attempt, '${WebhookDeliveryStatus.Pending}'
           FROM claimed JOIN webhooks.endpoints ep ON ep.id = claimed.endpoint_id
       )
       SELECT claimed.id AS delivery_id, claimed.attempt AS delivery_attempt,
              e.id AS event_id, e.type AS event_type, e.body AS event_body, e.trace AS event_trace, ep.*
         FROM claimed
         JOIN webhooks.events e ON e.id = claimed.event_id
         JOIN webhooks.endpoints ep ON ep.id = claimed.endpoint_id`,
      [ordered.map((w) => w.id), ordered.map((w) => w.attempt), owner, leaseMs, ordered.map((w) => waitAfterStall(w.attempt))],
    );
    return (await this.attemptsToMake(rows, leaseFrom, owner, notSentBecause)).filter((claimed) => claimed !== undefined);
  }

  /**
   * The claimed rows as attempts to make, in their order, undefined for each
   * the rule refuses (closed unsent). The statement that claimed them has
   * committed, so each row's aftermath is its own: a close that fails is
   * logged and costs the other claims nothing (they would stay leased unmade,
   * each losing an attempt once its lease ended). The delivery whose close
   * failed stays leased with its attempt PENDING: once the lease and the
   * wait after a stall end, the sweeper queues the next attempt, whose claim records this one as
   * unanswered and asks the rule again, so it is neither lost nor sent.
   * Closes run one at a time: a batch for an endpoint just disabled would
   * otherwise take every connection of the pool at once. The attempts wait
   * for them, within their leases: one that can no longer end within its
   * lease is not sent (DeliveryAttemptJob).
   */
  private async attemptsToMake(
    rows: readonly ClaimedRow[],
    leaseFrom: number,
    owner: string,
    notSentBecause: (endpoint: EndpointRow) => string | null,
  ): Promise<Array<ClaimedAttempt | undefined>> {
    const attempts: Array<ClaimedAttempt | undefined> = [];
    for (const row of rows) {
      attempts.push(
        await this.claimOf(row, leaseFrom, owner, notSentBecause).catch((error: Error) => {
          this.logger.warn('could not close a claimed attempt unsent; the sweeper queues it again once its lease ends', {
            delivery_id: row.delivery_id,
            attempt: row.delivery_attempt,
            error: error.message,
          });
          return undefined;
        }),
      );
    }
    return attempts;
  }

  /** A claimed row as an attempt to make, or undefined when the endpoint's rule closes it unsent (recorded here). */
  private async claimOf(
    { delivery_id, delivery_attempt, event_id, event_type, event_body, event_trace, ...endpoint }: ClaimedRow,
    leaseFrom: number,
    owner: string,
    notSentBecause: (endpoint: EndpointRow) => string | null,
  ): Promise<ClaimedAttempt | undefined> {
    const closedBecause = notSentBecause(endpoint);
    if (!closedBecause) return { deliveryId: delivery_id, attempt: delivery_attempt, leaseFrom, event: { id: event_id, type: event_type, body: event_body, trace: event_trace }, endpoint };
    await this.closeUnsent(delivery_id, delivery_attempt, owner, closedBecause);
    return undefined;
  }

  /**
   * Records the outcomes of claimed attempts (each one's result, its
   * delivery's next step and what it means for the endpoint), in the order
   * they finished, in one statement: one round trip and one commit for all of them. The
   * attempts' results and their endpoints' state are written even when the
   * lease was lost (the request was sent), while a delivery moves on only for
   * the lease's owner at that attempt. A resend asked for while the attempt was
   * in flight keeps its delivery open and due now, whatever the outcome: the
   * answer, in the completions' order, says which deliveries the caller must
   * queue again for it, and which completion disabled its endpoint (the first
   * of the batch that asked, when the statement did disable it: an endpoint
   * disabled already, or whose failure streak changed, is left as it is).
   *
   * A failure continues its endpoint's failure streak, or starts a new one
   * when the endpoint's latest failure is older than `streakGapMs` (the
   * policy's: RetryPolicy.streakGapMs), judged on the row as it is now, not
   * as the claim read it. The latest failure's time is written at most once
   * a minute per endpoint, so a failing endpoint's row is not locked by
   * every attempt either.
   */
  async completeAll(completions: readonly Completion[], owner: string, streakGapMs: number): Promise<CompletionOutcome[]> {
    if (completions.length === 0) return [];
    const changes = endpointChanges(completions.filter((c) => !c.unsent).map(({ claim, decision }) => ({ endpointId: claim.endpoint.id, decision })));
    const column = <T>(pick: (completion: Completion) => T): T[] => completions.map(pick);
    // The parts touch different rows (one attempt and one delivery per completion, and endpointChanges gives each
    // endpoint one change), as a statement may not update a row twice. Each endpoint change writes only when the
    // endpoint's state changes, so an endpoint whose attempts keep succeeding is not locked by every delivery. The
    // answer names the deliveries reopened by a resend and the endpoints this statement disabled, a row for each.
    const changed: Array<{ reopened: string | null; disabled: string | null }> = await this.db.query(
      `WITH outcome AS (
         SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::int[], $5::int[], $6::text[], $7::timestamptz[])
           AS o (delivery_id, attempt, status, http_status, latency_ms, error_message, next_attempt_at)
       ), attempt AS (
         UPDATE webhooks.delivery_attempts a
            SET delivery_status = o.status, http_status = o.http_status, latency_ms = o.latency_ms,
                error_message = o.error_message, next_retry_at = o.next_attempt_at
           FROM outcome o
          WHERE a.delivery_id = o.delivery_id AND a.attempt = o.attempt
       ), recovered AS (
         UPDATE webhooks.endpoints SET failing_since = NULL WHERE id = ANY ($9::text[]) AND failing_since IS NOT NULL
       ), failing AS (
         UPDATE webhooks.endpoints
            SET failing_since = CASE WHEN ${NEW_STREAK} THEN now() ELSE failing_since END, last_failure_at = now()
          WHERE id = ANY ($10::text[])
            AND (${NEW_STREAK} OR last_failure_at < now() - interval '1 minute')
       ), disabled AS (
         -- A disable for a failure streak holds only if the streak is still the one it was judged on (read at the
         -- claim, to the millisecond): not if the merchant enabled the endpoint again, or another attempt succeeded.
         UPDATE webhooks.endpoints ep SET status = 'disabled', disabled_reason = d.reason,
                catch_up_until = CASE WHEN ep.caught_up_at IS NULL THEN coalesce(ep.catch_up_until, now()) ELSE ep.catch_up_until END
           FROM unnest($11::text[], $12::text[], $13::timestamptz[]) AS d (id, reason, streak_since)
          WHERE ep.id = d.id AND ep.status = 'enabled'
            AND (d.streak_since IS NULL OR date_trunc('milliseconds', ep.failing_since) = d.streak_since)
         RETURNING ep.id
       ), moved AS (
         UPDATE webhooks.deliveries d
            SET status = CASE WHEN d.resend_requested THEN '${WebhookDeliveryStatus.Pending}' ELSE o.status END,
                next_attempt_at = CASE WHEN d.resend_requested THEN now() ELSE o.next_attempt_at END,
                lease_owner = NULL, lease_expires_at = NULL, updated_at = now()
           FROM outcome o
          WHERE d.id = o.delivery_id AND d.attempts = o.attempt AND d.lease_owner = $8
         RETURNING d.id, d.resend_requested
       )
       SELECT id AS reopened, NULL::text AS disabled FROM moved WHERE resend_requested
       UNION ALL
       SELECT NULL, id FROM disabled`,
      [
        column((c) => c.claim.deliveryId),
        column((c) => c.claim.attempt),
        column((c) => c.decision.status),
        column((c) => c.result.httpStatus),
        column((c) => c.result.latencyMs),
        // The endpoint's own words (its status line) may hold a NUL, which would fail every completion of the batch.
        column((c) => (c.result.error === null ? null : storableText(c.result.error))),
        column((c) => c.decision.nextAttemptAt),
        owner,
        changes.recovered,
        changes.failing,
        changes.disabled.map((d) => d.id),
        changes.disabled.map((d) => d.reason),
        changes.disabled.map((d) => d.streakSince),
        streakGapMs,
      ],
    );
    const reopened = new Set(changed.map((row) => row.reopened).filter((id) => id !== null));
    const disabled = new Set(changed.map((row) => row.disabled).filter((id) => id !== null));
    return completions.map(({ claim, decision, unsent }) => ({
      reopened: reopened.has(claim.deliveryId),
      // Set.delete answers true once: the first completion that asked gets the disabling, as endpointChanges gives it its reason.
      disabledEndpoint: !unsent && decision.disableEndpoint !== null && disabled.delete(claim.endpoint.id),
    }));
  }

  /**
   * Moves attempts held back for a slow endpoint (their jobs put back in the
   * queue until `until`) to that time, so the sweeper does not take them for
   * lost; in one statement for many. Only an attempt still to make, and not
   * leased, is moved, and never to an earlier time.
   */
  async holdBack(held: ReadonlyArray<{ id: string; attempt: number; until: Date }>): Promise<void> {
    if (held.length === 0) return;
    await this.db.query(
      `UPDATE webhooks.deliveries d SET next_attempt_at = GREATEST(d.next_attempt_at, h.until), updated_at = now()
         FROM unnest($1::text[], $2::int[], $3::timestamptz[]) AS h (id, attempt, until)
        WHERE d.id = h.id AND d.attempts = h.attempt - 1 AND d.status IN ${OPEN}
          AND (d.lease_expires_at IS NULL OR d.lease_expires_at < now())`,
      [held.map((h) => h.id), held.map((h) => h.attempt), held.map((h) => h.until)],
    );
  }

  /**
   * Open deliveries due for at least `graceMs` with no live lease: their
   * queued job was lost (Redis wiped) or their worker stopped mid-attempt.
   */
  overdue(graceMs: number, limit: number): Promise<DueDelivery[]> {
    return this.db.query(
      `SELECT id, attempts + 1 AS attempt, next_attempt_at, endpoint_id FROM webhooks.deliveries
        WHERE status IN ${OPEN} AND next_attempt_at <= now() - $1 * interval '1 millisecond'
          AND (lease_expires_at IS NULL OR lease_expires_at < now())
        ORDER BY next_attempt_at LIMIT $2`,
      [graceMs, limit],
    );
  }

  /**
   * The deliveries a new endpoint missed, made now and due now: the events
   * of its merchant and mode since its creation, of the types it takes, that
   * have none for it. An event taken in while the endpoint's creation had
   * not committed did not see the endpoint (recordEvents reads the committed
   * ones), though it happened after the endpoint's time; such an event
   * happened before the creation committed, within MISSED_EVENTS_SPAN_MS of
   * the endpoint's time (later ones are the intake's to judge). Reads the
   * endpoints whose catch-up is not settled, however long since their
   * creation the sweeper's round comes, and settles those older than
   * CATCH_UP_SETTLES_MS once a round found fewer than `limit` to make (it
   * made all they missed). The endpoint's row is locked (FOR NO KEY UPDATE) and so
   * read as a disabling that commits meanwhile leaves it: a disabling bounds
   * the catch-up to the events before it (`catch_up_until`,
   * endpoint.repository.ts), all of those missed while the creation
   * committed, so the events of a spell the endpoint was disabled, which the
   * intake skipped, are never sent, and a disabled endpoint waits for its
   * enabling or its settling. The lock is the one the
   * settling takes, so two replicas' rounds take turns on an endpoint rather
   * than each holding a share the other's update waits on (a deadlock); it
   * leaves the intake's deliveries to the endpoint free (their foreign key
   * takes a key share). Each such event gets its delivery once, however
   * often the sweeper looks.
   */
  catchUpNewEndpoints(limit: number): Promise<DueDelivery[]> {
    return this.db.query(
      `WITH candidates AS (
         SELECT e.id AS event_id, ep.id AS endpoint_id
           FROM webhooks.endpoints ep
           JOIN webhooks.events e
             ON e.merchant_id = ep.merchant_id AND e.livemode = ep.livemode
            AND e.created_at >= ep.created_at AND e.created_at < ep.created_at + $2 * interval '1 millisecond'
            AND e.created_at < coalesce(ep.catch_up_until, 'infinity')
            AND ('${ALL_EVENTS}' = ANY (ep.enabled_events) OR e.type = ANY (ep.enabled_events))
          WHERE ep.caught_up_at IS NULL AND ep.status = 'enabled' AND ep.deleted_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM webhooks.deliveries d WHERE d.event_id = e.id AND d.endpoint_id = ep.id)
          LIMIT $1
            FOR NO KEY UPDATE OF ep
       ), missed AS (
         INSERT INTO webhooks.deliveries (id, event_id, endpoint_id, status, next_attempt_at)
         SELECT gen_random_uuid()::text, event_id, endpoint_id, '${WebhookDeliveryStatus.Pending}', now() FROM candidates
         ON CONFLICT (event_id, endpoint_id) DO NOTHING
         RETURNING id, 1 AS attempt, next_attempt_at, endpoint_id
       ), settled AS (
         -- Only once this round found all there was (fewer candidates than it may take, whatever the inserts met), and
         -- past an endpoint another statement holds (an outcome disabling it): the next round settles that one.
         UPDATE webhooks.endpoints SET caught_up_at = now()
          WHERE id IN (SELECT id FROM webhooks.endpoints
                        WHERE caught_up_at IS NULL AND created_at < now() - $3 * interval '1 millisecond'
                          AND (SELECT count(*) FROM candidates) < $1
                          FOR NO KEY UPDATE SKIP LOCKED)
       )
       SELECT * FROM missed`,
      [limit, MISSED_EVENTS_SPAN_MS, CATCH_UP_SETTLES_MS],
    );
  }

  async eventExists(scope: Scope, eventId: string): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM webhooks.events WHERE id = $1 AND merchant_id = $2 AND livemode = $3`, [
      eventId,
      scope.merchant_id,
      scope.livemode,
    ]);
    return rows.length > 0;
  }

  /**
   * Makes the event's deliveries (to enabled endpoints; only `endpointId`'s
   * when given, creating it if the endpoint never had one) due now, finished
   * ones included. Answers them with the attempt to make. A delivery whose
   * attempt is in flight cannot be claimed now: it is marked, and that
   * attempt's outcome leaves it open and due (completeAll). A request with an
   * Idempotency-Key is recorded with the endpoints it made due, in the same
   * transaction: a concurrent repeat of the key fails it whole (a unique
   * violation), so one request never makes the deliveries due twice.
   */
  resend(scope: Scope, eventId: string, endpointId: string | undefined, request?: IdempotencyToken): Promise<DueDelivery[]> {
    return this.db.transaction(async (tx) => {
      if (endpointId) {
        await tx.query(
          `INSERT INTO webhooks.deliveries (id, event_id, endpoint_id, status, next_attempt_at)
           VALUES (gen_random_uuid()::text, $1, $2, '${WebhookDeliveryStatus.Pending}', now())
           ON CONFLICT (event_id, endpoint_id) DO NOTHING`,
          [eventId, endpointId],
        );
      }
      const [rows] = await tx.query(
        `UPDATE webhooks.deliveries d
            SET status = CASE WHEN d.status IN ${OPEN} THEN d.status ELSE '${WebhookDeliveryStatus.Pending}' END,
                next_attempt_at = now(), resend_requested = true, updated_at = now()
           FROM webhooks.endpoints ep
          WHERE d.event_id = $1 AND ep.id = d.endpoint_id AND ($2::text IS NULL OR d.endpoint_id = $2)
            AND ep.status = 'enabled' AND ep.deleted_at IS NULL
          RETURNING d.id, d.attempts + 1 AS attempt, d.next_attempt_at, d.endpoint_id`,
        [eventId, endpointId ?? null],
      );
      if (request) {
        await tx.query(
          `INSERT INTO webhooks.resend_requests (merchant_id, livemode, idempotency_key, fingerprint, event_id, webhook_ids)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [scope.merchant_id, scope.livemode, request.key, request.fingerprint, eventId, rows.map((row: DueDelivery) => row.endpoint_id)],
        );
      }
      return rows;
    });
  }

  /**
   * The resend an earlier request with this Idempotency-Key made, within the
   * gateway's retention of keys, after which the key is new again: a record
   * past it that the sweeper has not pruned yet is deleted here, so the key
   * can be recorded anew (as EndpointRepository.requested does).
   */
  async resendRequested(scope: Scope, idempotencyKey: string): Promise<ResendRequest | undefined> {
    const [row] = await this.db.query(
      `SELECT fingerprint, event_id, webhook_ids, ${pastRetention('$4')} AS expired
         FROM webhooks.resend_requests WHERE merchant_id = $1 AND livemode = $2 AND idempotency_key = $3`,
      [scope.merchant_id, scope.livemode, idempotencyKey, IDEMPOTENCY_RETENTION_SECONDS],
    );
    if (!row) return undefined;
    const { expired, ...request } = row;
    if (!expired) return request;
    await forgetExpiredRecord(this.db, 'resend_requests', scope, idempotencyKey);
    return undefined;
  }

  /** Deletes up to `limit` resend requests past the retention, oldest first (idempotency-records.ts). */
  pruneResendRequests(limit: number): Promise<number> {
    return pruneExpiredRecords(this.db, 'resend_requests', limit);
  }

  /**
   * The event's latest attempts (MAX_EVENT_ATTEMPTS_LISTED), oldest first, plus a PENDING line for each delivery
   * not attempted yet.
   */
  listAttempts(scope: Scope, eventId: string): Promise<DeliveryAttemptRow[]> {
    return this.db.query(
      `SELECT * FROM (
         (SELECT a.endpoint_id AS webhook_id, a.url, a.delivery_status, a.http_status, a.attempt, a.attempt - 1 AS retry_count,
                 a.latency_ms, a.error_message, a.next_retry_at, a.created_at
            FROM webhooks.delivery_attempts a
           WHERE a.event_id = $1
           ORDER BY a.id DESC LIMIT $4)
         UNION ALL
         SELECT d.endpoint_id, ep.url, '${WebhookDeliveryStatus.Pending}', NULL, 0, 0, NULL, NULL, d.next_attempt_at, d.created_at
           FROM webhooks.deliveries d JOIN webhooks.endpoints ep ON ep.id = d.endpoint_id
          WHERE d.event_id = $1 AND d.attempts = 0
       ) attempts
       WHERE EXISTS (SELECT 1 FROM webhooks.events e WHERE e.id = $1 AND e.merchant_id = $2 AND e.livemode = $3)
       ORDER BY created_at, attempt`,
      [eventId, scope.merchant_id, scope.livemode, MAX_EVENT_ATTEMPTS_LISTED],
    );
  }

  /** The endpoint's latest attempts (and deliveries not attempted yet), newest first, with the event each carried. */
  listEndpointAttempts(endpointId: string, limit: number): Promise<Array<DeliveryAttemptRow & { event_id: string; event_type: string }>> {
    return this.db.query(
      `SELECT * FROM (
         (SELECT a.event_id, a.endpoint_id AS webhook_id, a.url, a.delivery_status, a.http_status, a.attempt, a.attempt - 1 AS retry_count,
                 a.latency_ms, a.error_message, a.next_retry_at, a.created_at
            FROM webhooks.delivery_attempts a
           WHERE a.endpoint_id = $1
           ORDER BY a.id DESC LIMIT $2)
         UNION ALL
         -- The newest of them only, read in that order (deliveries_not_attempted_by_endpoint): a backlog is not sorted whole.
         (SELECT d.event_id, d.endpoint_id, ep.url, '${WebhookDeliveryStatus.Pending}', NULL, 0, 0, NULL, NULL, d.next_attempt_at, d.created_at
            FROM webhooks.deliveries d JOIN webhooks.endpoints ep ON ep.id = d.endpoint_id
           WHERE d.endpoint_id = $1 AND d.attempts = 0 AND d.status IN ${OPEN}
           ORDER BY d.created_at DESC LIMIT $2)
       ) attempts
       JOIN LATERAL (SELECT type AS event_type FROM webhooks.events e WHERE e.id = attempts.event_id) e ON true
       ORDER BY created_at DESC, attempt DESC
       LIMIT $2`,
      [endpointId, limit],
    );
  }

  /**
   * Closes a claimed attempt that must not be sent: the attempt EXHAUSTED with
   * the reason, the delivery EXHAUSTED and its lease released. Guarded by the
   * lease, so it changes nothing once another replica has taken the delivery
   * over (which, should this process stop before closing, has recorded this
   * attempt as one that got no answer and closes the delivery itself). A
   * resend asked for since the claim (the endpoint enabled again meanwhile)
   * keeps the delivery PENDING and due, for the sweeper to queue.
   */
  private async closeUnsent(deliveryId: string, attempt: number, owner: string, reason: string): Promise<void> {
    // The attempt is closed through the delivery's RETURNING, so both change or neither does.
    await this.db.query(
      `WITH closed AS (
         UPDATE webhooks.deliveries
            SET status = CASE WHEN resend_requested THEN '${WebhookDeliveryStatus.Pending}' ELSE '${WebhookDeliveryStatus.Exhausted}' END,
                next_attempt_at = CASE WHEN resend_requested THEN now() END,
                lease_owner = NULL, lease_expires_at = NULL, updated_at = now()
          WHERE id = $1 AND attempts = $2 AND lease_owner = $3
          RETURNING id
       )
       UPDATE webhooks.delivery_attempts a
          SET delivery_status = '${WebhookDeliveryStatus.Exhausted}', error_message = $4
         FROM closed
        WHERE a.delivery_id = closed.id AND a.attempt = $2`,
      [deliveryId, attempt, owner, reason],
    );
  }
}
