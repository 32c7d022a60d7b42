import { randomUUID } from 'node:crypto';
import { MAX_WEBHOOK_ENDPOINTS, WebhookDeliveryStatus } from '@pp/contracts';
import { JsonLogger } from '@pp/platform';
import { repositoryDatabase } from '@pp/testing';
import type { DataSource } from 'typeorm';
import { Client, type Pool } from 'pg';
import { WebhooksDatabase } from '../database/webhooks.database';
import type { EndpointRow } from '../endpoints/endpoint.repository';
import { notSentBecause } from './delivery-target.policy';
import { planOf, recordingStatements } from '../testing/query-plans';
import { deliveryAttemptView } from './delivery-attempt.view';
import { type ClaimedAttempt, DeliveryRepository, MAX_EVENT_ATTEMPTS_LISTED, type WaitAfterStall, type WebhookEventRecord } from './delivery.repository';
import { decideAfterAttempt, type RetryPolicy, streakGapMs } from './retry.decider';
import { retryScheduleMs, WebhooksConfig } from '../webhooks.config';

/*
 * Each of recordEvents, claimAll and completeAll is one SQL statement (no
 * BEGIN/COMMIT round trips). These check what the statements must keep from
 * the transactions they replace, on real Postgres as the service's own role.
 */
describe('DeliveryRepository (real Postgres, the webhooks role)', () => {
  let admin: Pool;
  let close: () => Promise<void>;
  let repository: DeliveryRepository;
  let dataSource: DataSource;
  const OWNER = 'replica-a';
  const LEASE_MS = 60_000;
  /** NATS's default largest message: a reply past it does not arrive at all. */
  const NATS_MAX_PAYLOAD = 1024 * 1024;
  /** Due again as soon as the lease ends, should the attempt's worker stop. */
  const noWait: WaitAfterStall = () => 0;
  /** The default schedule's quiet spell that ends a failure streak (25 h). */
  const GAP_MS = streakGapMs(retryScheduleMs(new WebhooksConfig()));
  /** The repository's warnings, one JSON line each. */
  const warnings: string[] = [];
  const logger = new JsonLogger('webhooks', 'warn', (line) => warnings.push(line));

  beforeAll(async () => {
    ({ dataSource, admin, close } = await repositoryDatabase(WebhooksDatabase, 'whrepo'));
    repository = new DeliveryRepository(dataSource, logger);
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });

  /** An endpoint of the merchant in test mode, subscribed to everything, created a minute ago unless told. */
  const endpoint = async (merchantId: string, createdAt = new Date(Date.now() - 60_000)): Promise<string> => {
    const id = `wh_${randomUUID().replace(/-/g, '')}`;
    await admin.query(
      `INSERT INTO webhooks.endpoints (id, merchant_id, livemode, url, enabled_events, secret_sealed, status, created_at)
       VALUES ($1, $2, false, $3, '{*}', 'v1:k1:sealed', 'enabled', $4)`,
      [id, merchantId, `https://hooks.example/${id}`, createdAt],
    );
    return id;
  };

  const event = (merchantId: string): WebhookEventRecord => ({
    id: `evt_${randomUUID().replace(/-/g, '')}`,
    merchant_id: merchantId,
    livemode: false,
    type: 'payment.confirmed',
    body: '{"id":"evt","amount":1250}',
    trace: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    created_at: new Date().toISOString(),
  });

  /** One attempt claimed on its own: the claim, or undefined when another claimant has it or the delivery is finished. */
  const claim = async (deliveryId: string, attempt: number, owner: string, leaseMs: number, policy: typeof notSentBecause, waitAfterStall: WaitAfterStall = noWait) =>
    (await repository.claimAll([{ id: deliveryId, attempt }], owner, leaseMs, policy, waitAfterStall))[0];

  /** One event recorded on its own, claiming nothing: its deliveries not attempted yet. */
  const recordEvent = async (recorded: WebhookEventRecord, firstAttemptAt: Date) => (await repository.recordEvents([{ event: recorded, firstAttemptAt }]))[0].due;

  const attemptsOf = async (deliveryId: string) =>
    (await admin.query(`SELECT attempt, delivery_status, error_message, url FROM webhooks.delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`, [deliveryId]))
      .rows;
  const deliveryRow = async (deliveryId: string) =>
    (await admin.query(`SELECT status, attempts, lease_owner, next_attempt_at FROM webhooks.deliveries WHERE id = $1`, [deliveryId])).rows[0];

  /** An event recorded for a merchant with one endpoint: its one delivery. */
  const oneDelivery = async () => {
    const merchant = `mer_${randomUUID().slice(0, 8)}`;
    const endpointId = await endpoint(merchant);
    const recorded = event(merchant);
    const [due] = await recordEvent(recorded, new Date());
    return { merchant, endpointId, recorded, deliveryId: due.id };
  };

  it('records an event once and answers its deliveries not attempted yet, those a redelivery recorded included', async () => {
    const merchant = `mer_${randomUUID().slice(0, 8)}`;
    const [a, b] = [await endpoint(merchant), await endpoint(merchant)];
    await endpoint(merchant, new Date(Date.now() + 60_000)); // created after the event: gets nothing
    const recorded = event(merchant);
    const firstAttemptAt = new Date(Date.now() + 1000);

    const first = await recordEvent(recorded, firstAttemptAt);
    expect(first).toHaveLength(2);
    expect(first).toEqual(expect.arrayOf(expect.objectContaining({ attempt: 1, next_attempt_at: firstAttemptAt })));
    const { rows: stored } = await admin.query(`SELECT body, trace FROM webhooks.events WHERE id = $1`, [recorded.id]);
    expect(stored).toEqual([{ body: recorded.body, trace: recorded.trace }]);

    // The redelivered message adds nothing and answers the same deliveries, less the one attempted since.
    expect(await claim(first[0].id, 1, OWNER, LEASE_MS, notSentBecause)).toBeDefined();
    const again = await recordEvent(recorded, new Date());
    expect(again.map((due) => due.id)).toEqual([first[1].id]);

    // An endpoint that appears (with an earlier creation time) between two deliveries of the message gets nothing from
    // them: the event was matched when first recorded, and an endpoint enabled since must not get what it missed. One
    // whose creation committed after the event's recording gets it from the sweeper's catch-up (catchUpNewEndpoints).
    await endpoint(merchant);
    const third = await recordEvent(recorded, firstAttemptAt);
    expect(third.map((due) => due.id)).toEqual([first[1].id]);
    const { rows: deliveries } = await admin.query(`SELECT endpoint_id FROM webhooks.deliveries WHERE event_id = $1`, [recorded.id]);
    expect(deliveries.map((row) => row.endpoint_id).sort()).toEqual([a, b].sort());
  });

  it('records events that arrive together in one statement and answers each its own deliveries, a copy given twice once', async () => {
    const [m1, m2, m3] = [1, 2, 3].map(() => `mer_${randomUUID().slice(0, 8)}`);
    const [a1, b1, a2] = [await endpoint(m1), await endpoint(m1), await endpoint(m2)];
    const [e1, e2, e3] = [event(m1), event(m2), event(m3)]; // m3 has no endpoint
    const at = new Date(Date.now() + 1000);
    const statements = jest.spyOn(Client.prototype, 'query');
    let due;
    try {
      due = (await repository.recordEvents([e1, e2, e1, e3].map((recorded) => ({ event: recorded, firstAttemptAt: at })))).map((recorded) => recorded.due);
      expect(statements).toHaveBeenCalledTimes(1);
    } finally {
      statements.mockRestore();
    }
    expect(due.map((deliveries) => deliveries.length)).toEqual([2, 1, 0, 0]);
    const endpointOf = async (deliveryId: string) => (await admin.query(`SELECT endpoint_id FROM webhooks.deliveries WHERE id = $1`, [deliveryId])).rows[0].endpoint_id;
    expect((await Promise.all(due[0].map((delivery) => endpointOf(delivery.id)))).sort()).toEqual([a1, b1].sort());
    expect(await endpointOf(due[1][0].id)).toBe(a2);
    const { rows: stored } = await admin.query(`SELECT id, trace FROM webhooks.events WHERE id = ANY($1) ORDER BY id`, [[e1.id, e2.id, e3.id]]);
    expect(stored).toHaveLength(3);
    expect(stored.every((row) => row.trace.traceparent === e1.trace!.traceparent)).toBe(true);
    // Given again with nothing attempted, the same deliveries come back: nothing was added twice.
    const again = (await repository.recordEvents([e2, e1].map((recorded) => ({ event: recorded, firstAttemptAt: at })))).map((recorded) => recorded.due);
    expect(again.map((deliveries) => deliveries.map((delivery) => delivery.id).sort())).toEqual([due[1].map((d) => d.id), due[0].map((d) => d.id).sort()]);
  });

  /** Recording that claims, for OWNER, up to `room` first attempts due now. */
  const claimingUpTo = (room: number, policy: typeof notSentBecause = notSentBecause, waitAfterStall: WaitAfterStall = noWait) => ({
    now: new Date(),
    room,
    slowEndpoints: [] as string[],
    owner: OWNER,
    leaseMs: LEASE_MS,
    notSentBecause: policy,
    waitAfterStall,
  });

  it('claims, as it records an event, its first attempts due now up to the room given: leased, recorded PENDING, event and endpoint read', async () => {
    const merchant = `mer_${randomUUID().slice(0, 8)}`;
    const endpoints = [await endpoint(merchant), await endpoint(merchant), await endpoint(merchant)];
    const recorded = event(merchant);

    const [{ claimed, due }] = await repository.recordEvents([{ event: recorded, firstAttemptAt: new Date(Date.now() - 1) }], claimingUpTo(2));
    expect(claimed).toHaveLength(2);
    expect(due).toEqual([expect.objectContaining({ attempt: 1 })]);
    for (const claim of claimed) {
      expect(claim).toMatchObject({ attempt: 1, event: { id: recorded.id, type: recorded.type, body: recorded.body, trace: recorded.trace } });
      expect(endpoints).toContain(claim.endpoint.id);
      expect(await deliveryRow(claim.deliveryId)).toMatchObject({ attempts: 1, lease_owner: OWNER });
      expect(await attemptsOf(claim.deliveryId)).toEqual([{ attempt: 1, delivery_status: WebhookDeliveryStatus.Pending, error_message: null, url: claim.endpoint.url }]);
    }
    expect(await deliveryRow(due[0].id)).toMatchObject({ attempts: 0, lease_owner: null });
    // Claimed at intake, an attempt is not claimed again (a queued job for it gets nothing).
    expect(await claim(claimed[0].deliveryId, 1, 'replica-b', LEASE_MS, notSentBecause)).toBeUndefined();
  });

  it('claims at intake nothing for a slow endpoint, and gives its room to the others: the slow one is answered due, with its endpoint', async () => {
    const merchant = `mer_${randomUUID().slice(0, 8)}`;
    const [slow, fast] = [await endpoint(merchant), await endpoint(merchant)];
    const [{ claimed, due }] = await repository.recordEvents([{ event: event(merchant), firstAttemptAt: new Date() }], { ...claimingUpTo(1), slowEndpoints: [slow] });
    expect(claimed.map((claim) => claim.endpoint.id)).toEqual([fast]);
    expect(due).toEqual([expect.objectContaining({ attempt: 1, endpoint_id: slow })]);
    expect(await deliveryRow(due[0].id)).toMatchObject({ attempts: 0, lease_owner: null });
  });

  it('claims at intake nothing that is not due yet, and nothing that an earlier copy of the message recorded', async () => {
    const merchant = `mer_${randomUUID().slice(0, 8)}`;
    await endpoint(merchant);
    const later = event(merchant);
    const [notYet] = await repository.recordEvents([{ event: later, firstAttemptAt: new Date(Date.now() + 60_000) }], claimingUpTo(10));
    expect(notYet.claimed).toEqual([]);
    expect(notYet.due).toHaveLength(1);

    const recorded = event(merchant);
    const [first] = await repository.recordEvents([{ event: recorded, firstAttemptAt: new Date() }], claimingUpTo(0));
    const [copy] = await repository.recordEvents([{ event: recorded, firstAttemptAt: new Date() }], claimingUpTo(10));
    expect(copy.claimed).toEqual([]);
    expect(copy.due.map((delivery) => delivery.id)).toEqual(first.due.map((delivery) => delivery.id));
  });

  it('closes unsent, instead of claiming, a first attempt at intake whose endpoint the rule refuses', async () => {
    const merchant = `mer_${randomUUID().slice(0, 8)}`;
    await endpoint(merchant);
    const [{ claimed, due }] = await repository.recordEvents([{ event: event(merchant), firstAttemptAt: new Date() }], claimingUpTo(5, () => 'endpoint refused'));
    expect([claimed, due]).toEqual([[], []]);
    const { rows } = await admin.query(`SELECT d.status, a.error_message FROM webhooks.deliveries d JOIN webhooks.delivery_attempts a ON a.delivery_id = d.id WHERE d.endpoint_id IN (SELECT id FROM webhooks.endpoints WHERE merchant_id = $1)`, [merchant]);
    expect(rows).toEqual([{ status: WebhookDeliveryStatus.Exhausted, error_message: 'endpoint refused' }]);
  });

  it('claims an attempt given twice in one call once (two queued jobs for one attempt that start together)', async () => {
    const { deliveryId } = await oneDelivery();
    const claims = await repository.claimAll([{ id: deliveryId, attempt: 1 }, { id: deliveryId, attempt: 1 }], OWNER, LEASE_MS, notSentBecause, noWait);
    expect(claims.map((claimed) => [claimed.deliveryId, claimed.attempt])).toEqual([[deliveryId, 1]]);
    expect(await attemptsOf(deliveryId)).toEqual([expect.objectContaining({ attempt: 1, delivery_status: WebhookDeliveryStatus.Pending })]);
  });

  it('claims an attempt for one of several concurrent claimants, with the attempt recorded PENDING and the event and endpoint read', async () => {
    const { endpointId, recorded, deliveryId } = await oneDelivery();
    const claims = await Promise.all(['r1', 'r2', 'r3', 'r4'].map((owner) => claim(deliveryId, 1, owner, LEASE_MS, notSentBecause)));
    const won = claims.filter((claim) => claim !== undefined);
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({
      deliveryId,
      attempt: 1,
      event: { id: recorded.id, type: recorded.type, body: recorded.body, trace: recorded.trace },
      endpoint: { id: endpointId, status: 'enabled', deleted_at: null, failing_since: null, secret_sealed: 'v1:k1:sealed' },
    });
    expect(Object.keys(won[0]!.event).sort()).toEqual(['body', 'id', 'trace', 'type']);
    expect(won[0]!.endpoint.created_at).toBeInstanceOf(Date);
    expect(await attemptsOf(deliveryId)).toEqual([{ attempt: 1, delivery_status: 'PENDING', error_message: null, url: `https://hooks.example/${endpointId}` }]);
    expect(await deliveryRow(deliveryId)).toMatchObject({ attempts: 1, lease_owner: expect.stringMatching(/^r[1-4]$/) });

    // The same attempt again, or the next one while the lease holds: nothing.
    expect(await claim(deliveryId, 1, 'r5', LEASE_MS, notSentBecause)).toBeUndefined();
    expect(await claim(deliveryId, 2, 'r5', LEASE_MS, notSentBecause)).toBeUndefined();
    expect(await attemptsOf(deliveryId)).toHaveLength(1);
  });

  it('records an attempt left in flight as failed when the next attempt is claimed after its lease', async () => {
    const { deliveryId } = await oneDelivery();
    expect(await claim(deliveryId, 1, 'stopped', 1, notSentBecause)).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(await claim(deliveryId, 2, OWNER, LEASE_MS, notSentBecause)).toMatchObject({ attempt: 2 });
    expect((await attemptsOf(deliveryId)).map(({ attempt, delivery_status, error_message }) => ({ attempt, delivery_status, error_message }))).toEqual([
      { attempt: 1, delivery_status: 'FAILED', error_message: 'no answer recorded: the worker making this attempt stopped' },
      { attempt: 2, delivery_status: 'PENDING', error_message: null },
    ]);
    expect(await deliveryRow(deliveryId)).toMatchObject({ attempts: 2, lease_owner: OWNER });
  });

  it('given attempts whose worker stopped, then each delivery is due again only once its lease and the wait a failure of that attempt would have had are over', async () => {
    const { deliveryId: waiting } = await oneDelivery();
    const { deliveryId: prompt } = await oneDelivery();
    const claimedAt = Date.now();
    expect(await claim(waiting, 1, 'stopped', 1, notSentBecause, (attempt) => attempt * 60_000)).toBeDefined();
    expect(await claim(prompt, 1, 'stopped', 1, notSentBecause, () => 0)).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 20));

    const overdue = (await repository.overdue(0, 10_000)).map((delivery) => delivery.id);
    expect([overdue.includes(waiting), overdue.includes(prompt)]).toEqual([false, true]);
    expect((await deliveryRow(waiting)).next_attempt_at.getTime()).toBeGreaterThanOrEqual(claimedAt + 60_000);

    // Claimed as its event is recorded: the same.
    const merchant = `mer_${randomUUID().slice(0, 8)}`;
    await endpoint(merchant);
    const [{ claimed }] = await repository.recordEvents([{ event: event(merchant), firstAttemptAt: new Date() }], claimingUpTo(1, notSentBecause, (attempt) => attempt * 60_000));
    expect((await deliveryRow(claimed[0].deliveryId)).next_attempt_at.getTime()).toBeGreaterThanOrEqual(claimedAt + LEASE_MS + 60_000);
  });

  it('closes the delivery unsent when the endpoint was deleted or disabled since', async () => {
    const deleted = await oneDelivery();
    await admin.query(`UPDATE webhooks.endpoints SET deleted_at = now() WHERE id = $1`, [deleted.endpointId]);
    expect(await claim(deleted.deliveryId, 1, OWNER, LEASE_MS, notSentBecause)).toBeUndefined();
    expect(await attemptsOf(deleted.deliveryId)).toEqual([
      expect.objectContaining({ attempt: 1, delivery_status: 'EXHAUSTED', error_message: 'not sent: the endpoint was deleted' }),
    ]);
    expect(await deliveryRow(deleted.deliveryId)).toEqual({ status: 'EXHAUSTED', attempts: 1, lease_owner: null, next_attempt_at: null });

    const disabled = await oneDelivery();
    await admin.query(`UPDATE webhooks.endpoints SET status = 'disabled', disabled_reason = 'endpoint answered 410 Gone' WHERE id = $1`, [disabled.endpointId]);
    expect(await claim(disabled.deliveryId, 1, OWNER, LEASE_MS, notSentBecause)).toBeUndefined();
    expect(await attemptsOf(disabled.deliveryId)).toEqual([
      expect.objectContaining({ delivery_status: 'EXHAUSTED', error_message: 'not sent: the endpoint is disabled (endpoint answered 410 Gone)' }),
    ]);
    expect(await deliveryRow(disabled.deliveryId)).toMatchObject({ status: 'EXHAUSTED', lease_owner: null });
  });

  it('leaves a delivery whose claimant stopped before closing it to the next claim, which records that attempt as unanswered and closes it', async () => {
    const { endpointId, deliveryId } = await oneDelivery();
    await admin.query(`UPDATE webhooks.endpoints SET deleted_at = now() WHERE id = $1`, [endpointId]);
    const stopsBeforeClosing = (): string => {
      throw new Error('stopped between the claim and the close');
    };
    // The failure is logged, not thrown: it is this claim's alone (attemptsToMake).
    expect(await claim(deliveryId, 1, 'stopped', 1, stopsBeforeClosing)).toBeUndefined();
    expect(warnings.splice(0).map((line) => JSON.parse(line))).toEqual([expect.objectContaining({ delivery_id: deliveryId, error: 'stopped between the claim and the close' })]);
    expect(await attemptsOf(deliveryId)).toEqual([expect.objectContaining({ attempt: 1, delivery_status: 'PENDING' })]);
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(await claim(deliveryId, 2, OWNER, LEASE_MS, notSentBecause)).toBeUndefined();
    expect((await attemptsOf(deliveryId)).map(({ attempt, delivery_status, error_message }) => ({ attempt, delivery_status, error_message }))).toEqual([
      { attempt: 1, delivery_status: 'FAILED', error_message: 'no answer recorded: the worker making this attempt stopped' },
      { attempt: 2, delivery_status: 'EXHAUSTED', error_message: 'not sent: the endpoint was deleted' },
    ]);
    expect(await deliveryRow(deliveryId)).toEqual({ status: 'EXHAUSTED', attempts: 2, lease_owner: null, next_attempt_at: null });
  });

  const endpointState = async (endpointId: string) =>
    (await admin.query(`SELECT status, disabled_reason, failing_since FROM webhooks.endpoints WHERE id = $1`, [endpointId])).rows[0];

  it('completes an attempt: its outcome, the delivery’s next step and the endpoint’s failure streak, together', async () => {
    const { endpointId, deliveryId } = await oneDelivery();
    const first = (await claim(deliveryId, 1, OWNER, LEASE_MS, notSentBecause))!;
    const retryAt = new Date(Date.now() + 5000);
    await repository.completeAll([{ claim: first, result: { httpStatus: 500, latencyMs: 12, error: 'endpoint answered 500 Internal Server Error' }, decision: {
      status: WebhookDeliveryStatus.Failed,
      nextAttemptAt: retryAt,
      disableEndpoint: null,
    } }], OWNER, GAP_MS);
    expect(await attemptsOf(deliveryId)).toEqual([expect.objectContaining({ attempt: 1, delivery_status: 'FAILED', error_message: 'endpoint answered 500 Internal Server Error' })]);
    expect(await deliveryRow(deliveryId)).toEqual({ status: 'FAILED', attempts: 1, lease_owner: null, next_attempt_at: retryAt });
    const { failing_since: failingSince } = await endpointState(endpointId);
    expect(failingSince).toBeInstanceOf(Date);

    const second = (await claim(deliveryId, 2, OWNER, LEASE_MS, notSentBecause))!;
    expect(second.endpoint.failing_since).toEqual(failingSince);
    await repository.completeAll([{ claim: second, result: { httpStatus: 200, latencyMs: 8, error: null }, decision: { status: WebhookDeliveryStatus.Success, nextAttemptAt: null, disableEndpoint: null } }], OWNER, GAP_MS);
    const { rows: made } = await admin.query(`SELECT attempt, delivery_status, http_status, latency_ms, next_retry_at FROM webhooks.delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`, [deliveryId]);
    expect(made).toEqual([
      { attempt: 1, delivery_status: 'FAILED', http_status: 500, latency_ms: 12, next_retry_at: retryAt },
      { attempt: 2, delivery_status: 'SUCCESS', http_status: 200, latency_ms: 8, next_retry_at: null },
    ]);
    expect(await deliveryRow(deliveryId)).toEqual({ status: 'SUCCESS', attempts: 2, lease_owner: null, next_attempt_at: null });
    expect(await endpointState(endpointId)).toEqual({ status: 'enabled', disabled_reason: null, failing_since: null });
  });

  it('given an attempt made unsent (held back too long for a slow endpoint), then it is recorded failed and due again, and starts no failure streak', async () => {
    const { endpointId, deliveryId } = await oneDelivery();
    const heldTooLong = (await claim(deliveryId, 1, OWNER, LEASE_MS, notSentBecause))!;
    const retryAt = new Date(Date.now() + 5000);
    const error = 'not sent: the endpoint had not answered its earlier attempts in time';
    await repository.completeAll(
      [{ claim: heldTooLong, result: { httpStatus: null, latencyMs: 0, error }, decision: { status: WebhookDeliveryStatus.Failed, nextAttemptAt: retryAt, disableEndpoint: null }, unsent: true }],
      OWNER,
      GAP_MS,
    );
    expect(await attemptsOf(deliveryId)).toEqual([expect.objectContaining({ attempt: 1, delivery_status: 'FAILED', error_message: error })]);
    expect(await deliveryRow(deliveryId)).toEqual({ status: 'FAILED', attempts: 1, lease_owner: null, next_attempt_at: retryAt });
    expect(await endpointState(endpointId)).toEqual({ status: 'enabled', disabled_reason: null, failing_since: null });
  });

  it('given an endpoint whose status line holds a NUL, then its attempt and the others completed beside it are recorded', async () => {
    const hostile = await oneDelivery();
    const other = await oneDelivery();
    const [hostileClaim, otherClaim] = [(await claim(hostile.deliveryId, 1, OWNER, LEASE_MS, notSentBecause))!, (await claim(other.deliveryId, 1, OWNER, LEASE_MS, notSentBecause))!];
    const failed = { status: WebhookDeliveryStatus.Failed as const, nextAttemptAt: new Date(Date.now() + 5000), disableEndpoint: null };
    await repository.completeAll(
      [
        { claim: hostileClaim, result: { httpStatus: 500, latencyMs: 3, error: 'endpoint answered 500 \u0000' }, decision: failed },
        { claim: otherClaim, result: { httpStatus: 200, latencyMs: 4, error: null }, decision: { status: WebhookDeliveryStatus.Success, nextAttemptAt: null, disableEndpoint: null } },
      ],
      OWNER,
      GAP_MS,
    );
    expect(await attemptsOf(hostile.deliveryId)).toEqual([expect.objectContaining({ delivery_status: 'FAILED', error_message: 'endpoint answered 500 ' })]);
    expect(await deliveryRow(other.deliveryId)).toMatchObject({ status: 'SUCCESS' });
  });

  it('keeps a delivery open and due when a resend is asked for while its attempt is in flight, and says so, in the completions’ order', async () => {
    const success = { result: { httpStatus: 200, latencyMs: 5, error: null }, decision: { status: WebhookDeliveryStatus.Success as const, nextAttemptAt: null, disableEndpoint: null } };
    const resent = await oneDelivery();
    const untouched = await oneDelivery();
    const inFlight = (await claim(resent.deliveryId, 1, OWNER, LEASE_MS, notSentBecause))!;
    const beside = (await claim(untouched.deliveryId, 1, OWNER, LEASE_MS, notSentBecause))!;

    // The resend's own attempt cannot be claimed while the lease lives: the outcome must not close it away.
    expect(await repository.resend({ merchant_id: resent.merchant, livemode: false }, resent.recorded.id, undefined)).toEqual([
      expect.objectContaining({ id: resent.deliveryId, attempt: 2 }),
    ]);
    expect(await claim(resent.deliveryId, 2, OWNER, LEASE_MS, notSentBecause)).toBeUndefined();
    const before = Date.now();
    expect(await repository.completeAll([{ claim: beside, ...success }, { claim: inFlight, ...success }], OWNER, GAP_MS)).toEqual([
      { reopened: false, disabledEndpoint: false },
      { reopened: true, disabledEndpoint: false },
    ]);
    expect(await attemptsOf(resent.deliveryId)).toEqual([expect.objectContaining({ attempt: 1, delivery_status: 'SUCCESS' })]);
    const reopened = await deliveryRow(resent.deliveryId);
    expect(reopened).toMatchObject({ status: 'PENDING', attempts: 1, lease_owner: null });
    expect(reopened.next_attempt_at.getTime()).toBeLessThanOrEqual(Date.now());
    expect(reopened.next_attempt_at.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await deliveryRow(untouched.deliveryId)).toMatchObject({ status: 'SUCCESS', next_attempt_at: null });

    // The next claim takes the resend: its outcome closes the delivery as usual.
    const again = (await claim(resent.deliveryId, 2, OWNER, LEASE_MS, notSentBecause))!;
    expect(await repository.completeAll([{ claim: again, ...success }], OWNER, GAP_MS)).toEqual([{ reopened: false, disabledEndpoint: false }]);
    expect(await deliveryRow(resent.deliveryId)).toMatchObject({ status: 'SUCCESS', attempts: 2, next_attempt_at: null });
  });

  it('disables for a failure streak only while the endpoint’s streak is the one judged on: not once enabled again or answered with success', async () => {
    const merchant = `mer_${randomUUID().slice(0, 8)}`;
    const endpointId = await endpoint(merchant);
    // Microseconds, as now() writes them: the claim reads the streak's start to the millisecond.
    await admin.query(`UPDATE webhooks.endpoints SET failing_since = now() - interval '6 days 0.000123 seconds' WHERE id = $1`, [endpointId]);
    const claimsOfNewEvents = async (count: number) => {
      const claims = [];
      for (let i = 0; i < count; i++) {
        const [due] = await recordEvent(event(merchant), new Date());
        claims.push((await claim(due.id, 1, OWNER, LEASE_MS, notSentBecause))!);
      }
      return claims;
    };
    /** The decision an attempt makes on the streak its claim read (decideAfterAttempt's, past the period). */
    const streakDisable = (claimed: Awaited<ReturnType<typeof claimsOfNewEvents>>[number]) => ({
      claim: claimed,
      result: { httpStatus: 500, latencyMs: 4, error: 'endpoint answered 500 Internal Server Error' },
      decision: {
        status: WebhookDeliveryStatus.Exhausted as const,
        nextAttemptAt: null,
        disableEndpoint: `every attempt has failed since ${claimed.endpoint.failing_since!.toISOString()}`,
        streakSince: claimed.endpoint.failing_since!,
      },
    });
    const enable = () =>
      admin.query(`UPDATE webhooks.endpoints SET status = 'enabled', disabled_reason = NULL, failing_since = NULL WHERE id = $1`, [endpointId]);

    // Enabled again by the merchant between two attempts that both judged the old streak.
    const [first, second] = await claimsOfNewEvents(2);
    await repository.completeAll([streakDisable(first)], OWNER, GAP_MS);
    expect(await endpointState(endpointId)).toMatchObject({ status: 'disabled', disabled_reason: expect.stringMatching(/^every attempt has failed since /) });
    await enable();
    await repository.completeAll([streakDisable(second)], OWNER, GAP_MS);
    expect(await endpointState(endpointId)).toEqual({ status: 'enabled', disabled_reason: null, failing_since: null });

    // Answered with success by one attempt while another, on the old streak, was in flight.
    await admin.query(`UPDATE webhooks.endpoints SET failing_since = now() - interval '6 days' WHERE id = $1`, [endpointId]);
    const [succeeding, stale] = await claimsOfNewEvents(2);
    await repository.completeAll([{ claim: succeeding, result: { httpStatus: 200, latencyMs: 3, error: null }, decision: { status: WebhookDeliveryStatus.Success, nextAttemptAt: null, disableEndpoint: null } }], OWNER, GAP_MS);
    await repository.completeAll([streakDisable(stale)], OWNER, GAP_MS);
    expect(await endpointState(endpointId)).toMatchObject({ status: 'enabled', disabled_reason: null });
  });

  it('given two attempts to one endpoint answered 410 and completed in one batch, then it is disabled once, by the first; a later 410 disables nothing', async () => {
    const merchant = `mer_${randomUUID().slice(0, 8)}`;
    const endpointId = await endpoint(merchant);
    const claims: ClaimedAttempt[] = [];
    for (let i = 0; i < 3; i++) {
      const [due] = await recordEvent(event(merchant), new Date());
      claims.push((await claim(due.id, 1, OWNER, LEASE_MS, notSentBecause))!);
    }
    const gone = (claimed: ClaimedAttempt) => ({
      claim: claimed,
      result: { httpStatus: 410, latencyMs: 2, error: 'endpoint answered 410 Gone' },
      decision: { status: WebhookDeliveryStatus.Exhausted as const, nextAttemptAt: null, disableEndpoint: 'endpoint answered 410 Gone' },
    });

    expect((await repository.completeAll([gone(claims[0]), gone(claims[1])], OWNER, GAP_MS)).map((outcome) => outcome.disabledEndpoint)).toEqual([true, false]);
    expect(await endpointState(endpointId)).toMatchObject({ status: 'disabled', disabled_reason: 'endpoint answered 410 Gone' });
    expect(await repository.completeAll([gone(claims[2])], OWNER, GAP_MS)).toEqual([{ reopened: false, disabledEndpoint: false }]);
  });

  it('given an endpoint whose last delivery ran out of attempts days ago, when a new delivery’s first attempt fails, then it is retried and a new failure streak starts', async () => {
    const DAY = 24 * 60 * 60 * 1000;
    const policy: RetryPolicy = { scheduleMs: retryScheduleMs(new WebhooksConfig()), disableAfterMs: 5 * DAY, streakGapMs: GAP_MS };
    const streakOf = async (endpointId: string) =>
      (await admin.query(`SELECT failing_since, last_failure_at FROM webhooks.endpoints WHERE id = $1`, [endpointId])).rows[0] as { failing_since: Date; last_failure_at: Date };
    const isAboutNow = (date: Date) => Math.abs(date.getTime() - Date.now()) < 5_000;
    /** Claims the delivery's next attempt, lets the decider judge a 500 on what the claim read, and records it. */
    const failNext = async (deliveryId: string, attempt: number) => {
      const claimed = (await claim(deliveryId, attempt, OWNER, LEASE_MS, notSentBecause))!;
      const streak = { failingSince: claimed.endpoint.failing_since, lastFailureAt: claimed.endpoint.last_failure_at };
      const decision = decideAfterAttempt({ httpStatus: 500, retryAfterMs: null }, attempt, streak, policy, new Date());
      await repository.completeAll([{ claim: claimed, result: { httpStatus: 500, latencyMs: 4, error: 'endpoint answered 500' }, decision }], OWNER, GAP_MS);
      return decision;
    };

    // Given: a streak that began 6 days ago, whose latest failure (a delivery's last attempt) was 2 days ago.
    const { endpointId, deliveryId } = await oneDelivery();
    await admin.query(`UPDATE webhooks.endpoints SET failing_since = now() - interval '6 days', last_failure_at = now() - interval '2 days' WHERE id = $1`, [endpointId]);

    // When: the new delivery's first attempt fails. Then: it is retried, the endpoint stays enabled, its streak starts now.
    expect(await failNext(deliveryId, 1)).toMatchObject({ status: WebhookDeliveryStatus.Failed, disableEndpoint: null });
    expect(await deliveryRow(deliveryId)).toMatchObject({ status: WebhookDeliveryStatus.Failed, attempts: 1, next_attempt_at: expect.any(Date) });
    expect(await endpointState(endpointId)).toMatchObject({ status: 'enabled', disabled_reason: null });
    const started = await streakOf(endpointId);
    expect([isAboutNow(started.failing_since), isAboutNow(started.last_failure_at)]).toEqual([true, true]);

    // A failure within the gap continues that streak (its time written at most once a minute).
    await failNext(deliveryId, 2);
    expect(await streakOf(endpointId)).toEqual(started);
    await admin.query(`UPDATE webhooks.endpoints SET failing_since = now() - interval '4 days', last_failure_at = now() - interval '20 hours' WHERE id = $1`, [endpointId]);
    const { failing_since: running } = await streakOf(endpointId);
    await failNext(deliveryId, 3);
    const continued = await streakOf(endpointId);
    expect(continued.failing_since).toEqual(running);
    expect(isAboutNow(continued.last_failure_at)).toBe(true);
  });

  it('keeps a claimed delivery open for a resend asked for before it was closed unsent (its endpoint enabled again meanwhile)', async () => {
    const { endpointId, deliveryId } = await oneDelivery();
    await admin.query(`UPDATE webhooks.endpoints SET status = 'disabled', disabled_reason = 'by the merchant' WHERE id = $1`, [endpointId]);
    // Between the claim's statement and the close, the merchant enables the endpoint and resends: the repository's
    // close waits here until that resend's mark is committed, so the two always come in this order.
    let marked: Promise<unknown> = Promise.resolve();
    const inOrder = new Proxy(dataSource, {
      get: (target, property, receiver) =>
        property === 'query'
          ? async (sql: string, parameters?: unknown[]) => {
              if (sql.includes('WITH closed AS')) await marked;
              return target.query(sql, parameters);
            }
          : Reflect.get(target, property, receiver),
    });
    const refuseAndLetTheResendIn = (target: Parameters<typeof notSentBecause>[0]) => {
      marked = admin.query(`UPDATE webhooks.deliveries SET resend_requested = true, next_attempt_at = now() WHERE id = $1`, [deliveryId]);
      return notSentBecause(target);
    };
    expect(await new DeliveryRepository(inOrder, logger).claimAll([{ id: deliveryId, attempt: 1 }], OWNER, LEASE_MS, refuseAndLetTheResendIn, noWait)).toEqual([]);
    expect(await attemptsOf(deliveryId)).toEqual([
      expect.objectContaining({ attempt: 1, delivery_status: 'EXHAUSTED', error_message: expect.stringMatching(/^not sent: the endpoint is disabled/) }),
    ]);
    expect(await deliveryRow(deliveryId)).toMatchObject({ status: 'PENDING', attempts: 1, lease_owner: null, next_attempt_at: expect.any(Date) });
  });

  it('disables the endpoint when the decision says so, and records the outcome of an attempt whose lease was lost without moving the delivery', async () => {
    const gone = await oneDelivery();
    const claimed = (await claim(gone.deliveryId, 1, OWNER, LEASE_MS, notSentBecause))!;
    await repository.completeAll([{ claim: claimed, result: { httpStatus: 410, latencyMs: 3, error: 'endpoint answered 410 Gone' }, decision: {
      status: WebhookDeliveryStatus.Exhausted,
      nextAttemptAt: null,
      disableEndpoint: 'endpoint answered 410 Gone',
    } }], OWNER, GAP_MS);
    expect(await endpointState(gone.endpointId)).toEqual({ status: 'disabled', disabled_reason: 'endpoint answered 410 Gone', failing_since: null });
    expect(await deliveryRow(gone.deliveryId)).toMatchObject({ status: 'EXHAUSTED', lease_owner: null });

    const late = await oneDelivery();
    const slow = (await claim(late.deliveryId, 1, 'slow', 1, notSentBecause))!;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await claim(late.deliveryId, 2, OWNER, LEASE_MS, notSentBecause)).toBeDefined();
    await repository.completeAll([{ claim: slow, result: { httpStatus: 200, latencyMs: 2500, error: null }, decision: { status: WebhookDeliveryStatus.Success, nextAttemptAt: null, disableEndpoint: null } }], 'slow', GAP_MS);
    expect((await attemptsOf(late.deliveryId)).map((row) => row.delivery_status)).toEqual(['SUCCESS', 'PENDING']);
    expect(await deliveryRow(late.deliveryId)).toMatchObject({ status: 'PENDING', attempts: 2, lease_owner: OWNER });
  });

  it('claims all first attempts of an event in one statement: those still open, for one claimant, the closed ones closed', async () => {
    const merchant = `mer_${randomUUID().slice(0, 8)}`;
    const [a, b, c] = [await endpoint(merchant), await endpoint(merchant), await endpoint(merchant)];
    const due = await recordEvent(event(merchant), new Date());
    const deliveryTo = async (endpointId: string) =>
      (await admin.query(`SELECT id FROM webhooks.deliveries WHERE endpoint_id = $1`, [endpointId])).rows[0].id as string;
    const [toA, toB, toC] = [await deliveryTo(a), await deliveryTo(b), await deliveryTo(c)];
    expect(await claim(toB, 1, 'other-replica', LEASE_MS, notSentBecause)).toBeDefined(); // already being made elsewhere
    await admin.query(`UPDATE webhooks.endpoints SET status = 'disabled', disabled_reason = 'by the merchant' WHERE id = $1`, [c]);
    const statements = jest.spyOn(Client.prototype, 'query');
    let claims;
    try {
      claims = await repository.claimAll(due, OWNER, LEASE_MS, notSentBecause, noWait);
      expect(statements).toHaveBeenCalledTimes(2); // the claims, then closing the one to the disabled endpoint
    } finally {
      statements.mockRestore();
    }
    expect(claims.map((claim) => [claim.deliveryId, claim.attempt, claim.endpoint.id])).toEqual([[toA, 1, a]]);
    expect(await deliveryRow(toA)).toMatchObject({ attempts: 1, lease_owner: OWNER });
    expect(await deliveryRow(toB)).toMatchObject({ attempts: 1, lease_owner: 'other-replica' });
    expect(await deliveryRow(toC)).toMatchObject({ status: WebhookDeliveryStatus.Exhausted, lease_owner: null });
    expect(await attemptsOf(toC)).toEqual([expect.objectContaining({ attempt: 1, delivery_status: WebhookDeliveryStatus.Exhausted })]);
    // Claimed again (a redelivered event in another replica): nothing is won twice.
    expect(await repository.claimAll(due, 'replica-b', LEASE_MS, notSentBecause, noWait)).toEqual([]);
  });

  /** The repository on the same pool, where closing an attempt unsent fails (connection lost mid-close) when its reason mentions `failing`. */
  const closingFailsFor = (failing: string) =>
    new DeliveryRepository(
      new Proxy(dataSource, {
        get: (target, property, receiver) =>
          property === 'query'
            ? async (sql: string, parameters?: unknown[]) => {
                if (sql.includes('WITH closed AS') && String(parameters?.[3]).includes(failing)) throw new Error('Connection terminated unexpectedly');
                return target.query(sql, parameters);
              }
            : Reflect.get(target, property, receiver),
      }),
      logger,
    );
  const onlyDeliveryTo = async (endpointId: string) => (await admin.query(`SELECT id FROM webhooks.deliveries WHERE endpoint_id = $1`, [endpointId])).rows[0].id as string;
  const warned = () => warnings.splice(0).map((line) => JSON.parse(line));
  const closeFailed = (deliveryId: string) =>
    expect.objectContaining({ msg: 'could not close a claimed attempt unsent; the sweeper queues it again once its lease ends', delivery_id: deliveryId, attempt: 1, error: 'Connection terminated unexpectedly' });
  const answered200 = { result: { httpStatus: 200, latencyMs: 5, error: null }, decision: { status: WebhookDeliveryStatus.Success as const, nextAttemptAt: null, disableEndpoint: null } };

  it('makes the other claims of a batch when closing one unsent fails: each keeps its attempt, and the one left leased is closed by a later claim', async () => {
    const merchant = `mer_${randomUUID().slice(0, 8)}`;
    const [a, b, refused, failing] = [await endpoint(merchant), await endpoint(merchant), await endpoint(merchant), await endpoint(merchant)];
    const due = await recordEvent(event(merchant), new Date());
    const disable = (id: string, reason: string) => admin.query(`UPDATE webhooks.endpoints SET status = 'disabled', disabled_reason = $2 WHERE id = $1`, [id, reason]);
    await disable(refused, 'by the merchant');
    await disable(failing, 'its close fails');
    const [toRefused, toFailing] = [await onlyDeliveryTo(refused), await onlyDeliveryTo(failing)];
    warned();

    const claims = await closingFailsFor('its close fails').claimAll(due, OWNER, LEASE_MS, notSentBecause, noWait);

    expect(claims.map((claim) => claim.endpoint.id).sort()).toEqual([a, b].sort());
    expect(warned()).toEqual([closeFailed(toFailing)]);
    expect(await deliveryRow(toRefused)).toMatchObject({ status: WebhookDeliveryStatus.Exhausted, lease_owner: null });
    // Left as the claim left it: leased, its attempt PENDING, never sent.
    expect(await deliveryRow(toFailing)).toMatchObject({ status: WebhookDeliveryStatus.Pending, attempts: 1, lease_owner: OWNER });
    // The claims won are made at their first attempt, not left to a lease that ends and costs them one.
    await repository.completeAll(claims.map((claim) => ({ claim, ...answered200 })), OWNER, GAP_MS);
    for (const claim of claims) {
      expect(await deliveryRow(claim.deliveryId)).toMatchObject({ status: WebhookDeliveryStatus.Success, attempts: 1 });
      expect(await attemptsOf(claim.deliveryId)).toEqual([expect.objectContaining({ attempt: 1, delivery_status: WebhookDeliveryStatus.Success })]);
    }

    // Once its lease and the wait after it end the sweeper finds it, and the next attempt's claim closes it: nothing lost, nothing sent.
    await admin.query(`UPDATE webhooks.deliveries SET lease_expires_at = now() - interval '1 second', next_attempt_at = now() - interval '1 second' WHERE id = $1`, [toFailing]);
    expect((await repository.overdue(0, 10_000)).filter((overdue) => overdue.id === toFailing)).toEqual([expect.objectContaining({ attempt: 2 })]);
    expect(await claim(toFailing, 2, OWNER, LEASE_MS, notSentBecause)).toBeUndefined();
    expect(await deliveryRow(toFailing)).toMatchObject({ status: WebhookDeliveryStatus.Exhausted, attempts: 2, lease_owner: null });
    expect((await attemptsOf(toFailing)).map(({ attempt, delivery_status }) => [attempt, delivery_status])).toEqual([
      [1, WebhookDeliveryStatus.Failed],
      [2, WebhookDeliveryStatus.Exhausted],
    ]);
  });

  it('answers the other first attempts claimed at intake when closing one unsent fails, and leaves that one leased', async () => {
    const merchant = `mer_${randomUUID().slice(0, 8)}`;
    const [a, b, failing] = [await endpoint(merchant), await endpoint(merchant), await endpoint(merchant)];
    warned();

    const [{ claimed, due }] = await closingFailsFor('its close fails').recordEvents(
      [{ event: event(merchant), firstAttemptAt: new Date() }],
      { ...claimingUpTo(3), notSentBecause: (target: EndpointRow) => (target.id === failing ? 'not sent: its close fails' : null) },
    );

    expect(claimed.map((claim) => claim.endpoint.id).sort()).toEqual([a, b].sort());
    expect(due).toEqual([]);
    const toFailing = await onlyDeliveryTo(failing);
    expect(warned()).toEqual([closeFailed(toFailing)]);
    expect(await deliveryRow(toFailing)).toMatchObject({ status: WebhookDeliveryStatus.Pending, attempts: 1, lease_owner: OWNER });
  });

  it('completes several attempts in one statement: each delivery moves on, and each endpoint ends as its last outcome says', async () => {
    const merchant = `mer_${randomUUID().slice(0, 8)}`;
    const endpointId = await endpoint(merchant);
    const [first] = await recordEvent(event(merchant), new Date());
    const [second] = await recordEvent(event(merchant), new Date());
    const claims = await repository.claimAll([first, second], OWNER, LEASE_MS, notSentBecause, noWait);
    const byDelivery = (id: string) => claims.find((claim) => claim.deliveryId === id)!;
    const retryAt = new Date(Date.now() + 60_000);
    const statements = jest.spyOn(Client.prototype, 'query');
    try {
      await repository.completeAll(
        [
          { claim: byDelivery(first.id), result: { httpStatus: 500, latencyMs: 7, error: 'endpoint answered 500' }, decision: { status: WebhookDeliveryStatus.Failed, nextAttemptAt: retryAt, disableEndpoint: null } },
          { claim: byDelivery(second.id), result: { httpStatus: 200, latencyMs: 4, error: null }, decision: { status: WebhookDeliveryStatus.Success, nextAttemptAt: null, disableEndpoint: null } },
        ],
        OWNER,
        GAP_MS,
      );
      expect(statements).toHaveBeenCalledTimes(1);
    } finally {
      statements.mockRestore();
    }
    expect(await deliveryRow(first.id)).toMatchObject({ status: WebhookDeliveryStatus.Failed, lease_owner: null, next_attempt_at: retryAt });
    expect(await deliveryRow(second.id)).toMatchObject({ status: WebhookDeliveryStatus.Success, lease_owner: null, next_attempt_at: null });
    expect(await attemptsOf(first.id)).toEqual([expect.objectContaining({ delivery_status: WebhookDeliveryStatus.Failed, error_message: 'endpoint answered 500' })]);
    expect(await attemptsOf(second.id)).toEqual([expect.objectContaining({ delivery_status: WebhookDeliveryStatus.Success, error_message: null })]);
    const { rows } = await admin.query(`SELECT failing_since, status FROM webhooks.endpoints WHERE id = $1`, [endpointId]);
    expect(rows).toEqual([{ failing_since: null, status: 'enabled' }]); // the success came last
  });

  it('lists the latest attempts of an event resent many times, oldest first, with its deliveries not attempted yet, in a reply well under NATS’s max_payload', async () => {
    const merchant = `mer_${randomUUID().slice(0, 8)}`;
    const endpoints = [];
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS; i += 1) endpoints.push(await endpoint(merchant));
    // URLs of 2 KB, the most an endpoint may have.
    await admin.query(`UPDATE webhooks.endpoints SET url = rpad(url || '?pad=', 2048, 'x') WHERE id = ANY($1)`, [endpoints]);
    const recorded = event(merchant);
    const [notAttempted, ...attempted] = await recordEvent(recorded, new Date());
    const PER_DELIVERY = 12;
    await admin.query(`UPDATE webhooks.deliveries SET attempts = $2, status = 'EXHAUSTED' WHERE id = ANY($1)`, [attempted.map((due) => due.id), PER_DELIVERY]);
    // Each a minute after the one before, the newest a minute ago, with an error as long as the sender's get.
    await admin.query(
      `INSERT INTO webhooks.delivery_attempts (delivery_id, event_id, endpoint_id, url, attempt, delivery_status, http_status, latency_ms, error_message, next_retry_at, created_at)
       SELECT d.id, d.event_id, d.endpoint_id, ep.url, n, 'FAILED', 503, 10000, repeat('e', 400), now(), now() - ($2 + 1 - n) * interval '1 minute'
         FROM webhooks.deliveries d JOIN webhooks.endpoints ep ON ep.id = d.endpoint_id, generate_series(1, $2::int) n
        WHERE d.id = ANY($1)
        ORDER BY n, d.id`,
      [attempted.map((due) => due.id), PER_DELIVERY],
    );
    expect(attempted.length * PER_DELIVERY).toBeGreaterThan(MAX_EVENT_ATTEMPTS_LISTED);

    const lines = await repository.listAttempts({ merchant_id: merchant, livemode: false }, recorded.id);

    expect(lines).toHaveLength(MAX_EVENT_ATTEMPTS_LISTED + 1);
    const times = lines.map((line) => new Date(line.created_at).getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // The oldest attempts are the ones left out: every delivery's latest are there.
    const shown = lines.filter((line) => line.attempt > 0);
    expect(Math.min(...shown.map((line) => line.attempt))).toBeGreaterThan(1);
    expect(shown.filter((line) => line.attempt === PER_DELIVERY)).toHaveLength(attempted.length);
    expect(lines.at(-1)).toMatchObject({ webhook_id: notAttempted.endpoint_id, delivery_status: WebhookDeliveryStatus.Pending, attempt: 0 });
    expect(Buffer.byteLength(JSON.stringify({ deliveries: lines.map(deliveryAttemptView) }))).toBeLessThan(NATS_MAX_PAYLOAD / 2);
  });

  it('reads an endpoint’s deliveries not attempted yet newest first through their index, instead of sorting its whole backlog', async () => {
    const { merchant, endpointId } = await oneDelivery();
    const later = [event(merchant), event(merchant)];
    for (const recorded of later) await recordEvent(recorded, new Date());
    const recording = recordingStatements(dataSource);

    const listed = await new DeliveryRepository(recording.dataSource, logger).listEndpointAttempts(endpointId, 2);

    expect(listed.map((line) => [line.event_id, line.delivery_status])).toEqual([
      [later[1].id, WebhookDeliveryStatus.Pending],
      [later[0].id, WebhookDeliveryStatus.Pending],
    ]);
    expect(await planOf(admin, recording.statements[0])).toMatch(/Index Scan Backward using deliveries_not_attempted_by_endpoint/);
  });

  it('makes each of recordEvents, claimAll and completeAll one statement, so one round trip to Postgres', async () => {
    const merchant = `mer_${randomUUID().slice(0, 8)}`;
    await endpoint(merchant);
    const statements = jest.spyOn(Client.prototype, 'query');
    try {
      const [due] = await recordEvent(event(merchant), new Date());
      const claimed = (await claim(due.id, 1, OWNER, LEASE_MS, notSentBecause))!;
      await repository.completeAll([{ claim: claimed, result: { httpStatus: 200, latencyMs: 5, error: null }, decision: { status: WebhookDeliveryStatus.Success, nextAttemptAt: null, disableEndpoint: null } }], OWNER, GAP_MS);
      expect(statements).toHaveBeenCalledTimes(3);
    } finally {
      statements.mockRestore();
    }
  });
});
