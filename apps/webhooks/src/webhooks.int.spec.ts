import { DomainError, MerchantEventType, WebhookDeliveryStatus, type WebhookDeliveryAttemptView } from '@pp/contracts';
import type { BusClient } from '@pp/platform';
import { type TestStack, testInfra, verifyWebhook, waitFor, type WebhookReceiver } from '@pp/testing';
import Redis from 'ioredis';
import type { LedgerEventFixture } from './intake/ledger-event.fixture';
import { startWebhooksTestBed, type WebhooksTestBed } from './testing/webhooks-test-bed';

const ATTEMPTS = 5;
/**
 * A port nothing listens on (discard): the tests' servers listen on ports
 * the kernel or freePort picks, far above it, whereas a port freed after
 * listen(0) could be handed to another test's server within the attempts.
 */
const CLOSED_PORT = 9;
const CLOSED_PORT_URL = `http://127.0.0.1:${CLOSED_PORT}/hook`;

describe('webhooks service (real Postgres, NATS, Redis and HTTP receiver)', () => {
  let bed: WebhooksTestBed;
  let stack: TestStack;
  let bus: BusClient;
  let ledger: LedgerEventFixture;
  let receiver: WebhookReceiver;
  let merchantCount = 0;

  beforeAll(async () => {
    bed = await startWebhooksTestBed('webhooks', { WEBHOOK_RETRY_SCHEDULE: '0,0.2,0.2,0.2,0.2', WEBHOOK_ATTEMPT_TIMEOUT_MS: '500', WEBHOOK_SWEEP_INTERVAL_MS: '300' });
    ({ stack, bus, ledger, receiver } = bed);
  });

  afterAll(() => bed?.close());

  const newMerchant = () => `mer_spec${++merchantCount}${Date.now()}`;

  /** An endpoint on its own receiver path, trusted by the receiver. */
  async function endpoint(merchantId: string, path: string, options: { livemode?: boolean; enabled_events?: string[] } = {}) {
    const created = await bus.request('webhooks.endpoints.create.v1', {
      merchant_id: merchantId,
      livemode: options.livemode ?? false,
      url: receiver.url(path),
      ...(options.enabled_events ? { enabled_events: options.enabled_events } : {}),
    });
    receiver.trust(path, created.secret);
    return created;
  }

  const deliveries = async (merchantId: string, eventId: string, livemode = false): Promise<WebhookDeliveryAttemptView[]> =>
    (await bus.request('webhooks.deliveries.list.v1', { merchant_id: merchantId, livemode, event_id: eventId })).deliveries;

  const finalAttempts = (merchantId: string, eventId: string, count: number, status: WebhookDeliveryStatus) =>
    waitFor(`${count} attempts ending ${status} for ${eventId}`, async () => {
      const attempts = await deliveries(merchantId, eventId);
      // Finished means no attempt still in flight (with several endpoints, attempts finish in any order).
      const settled = attempts.every((attempt) => attempt.delivery_status !== WebhookDeliveryStatus.Pending);
      return attempts.length === count && settled && attempts[count - 1].delivery_status === status && attempts;
    });

  const rejection = (promise: Promise<unknown>) => promise.then(() => undefined, (error: DomainError) => error);

  it('registers endpoints per merchant and mode, shows the secret only at creation and rotation', async () => {
    const merchant = newMerchant();
    const created = await endpoint(merchant, '/registry', { enabled_events: ['payment.confirmed'] });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^wh_/),
      url: receiver.url('/registry'),
      enabled_events: ['payment.confirmed'],
      secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{40,}$/),
      livemode: false,
      status: 'enabled',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const defaults = await bus.request('webhooks.endpoints.create.v1', { merchant_id: merchant, livemode: false, url: receiver.url('/all') });
    expect(defaults.enabled_events).toEqual(['*']);

    const { endpoints } = await bus.request('webhooks.endpoints.list.v1', { merchant_id: merchant, livemode: false });
    // Newest first; two made within one millisecond go by id, the list's tie-break.
    const newestFirst = [defaults, created].sort((x, y) => y.created_at.localeCompare(x.created_at) || y.id.localeCompare(x.id));
    expect(endpoints.map((e) => e.id)).toEqual(newestFirst.map((e) => e.id));
    expect(endpoints.filter((e) => 'secret' in e)).toEqual([]);
    expect((await bus.request('webhooks.endpoints.list.v1', { merchant_id: merchant, livemode: true })).endpoints).toEqual([]);
    expect((await bus.request('webhooks.endpoints.list.v1', { merchant_id: newMerchant(), livemode: false })).endpoints).toEqual([]);

    const foreign = { merchant_id: newMerchant(), livemode: false, endpoint_id: created.id };
    const otherMode = { merchant_id: merchant, livemode: true, endpoint_id: created.id };
    for (const ref of [foreign, otherMode]) {
      expect(await rejection(bus.request('webhooks.endpoints.delete.v1', ref))).toMatchObject({ code: 'NOT_FOUND', message: 'Webhook endpoint not found' });
      expect(await rejection(bus.request('webhooks.endpoints.rotate-secret.v1', ref))).toMatchObject({ code: 'NOT_FOUND' });
    }

    const rotated = await bus.request('webhooks.endpoints.rotate-secret.v1', { merchant_id: merchant, livemode: false, endpoint_id: created.id });
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(Date.parse(rotated.previous_secret_expires_at ?? '') - Date.now()).toBeGreaterThan(23 * 3600 * 1000);

    await bus.request('webhooks.endpoints.delete.v1', { merchant_id: merchant, livemode: false, endpoint_id: created.id });
    expect((await bus.request('webhooks.endpoints.list.v1', { merchant_id: merchant, livemode: false })).endpoints.map((e) => e.id)).toEqual([defaults.id]);
  });

  it('refuses http URLs in live mode and unknown event types', async () => {
    const merchant = newMerchant();
    expect(await rejection(bus.request('webhooks.endpoints.create.v1', { merchant_id: merchant, livemode: true, url: receiver.url('/live') }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Validation failed: url must use https in live mode',
    });
    expect(
      await rejection(
        bus.request('webhooks.endpoints.create.v1', { merchant_id: merchant, livemode: false, url: receiver.url('/x'), enabled_events: ['payment.stolen'] }),
      ),
    ).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('POSTs the exact bytes it signs to each subscribed endpoint of the same merchant and mode; a tampered body fails', async () => {
    const merchant = newMerchant();
    const all = await endpoint(merchant, '/signed');
    await endpoint(merchant, '/only-failures', { enabled_events: ['payment.failed'] });
    await endpoint(merchant, '/live-mode-path', { livemode: false });
    const stranger = newMerchant();
    await endpoint(stranger, '/stranger');

    const event = ledger.event(merchant, MerchantEventType.PaymentConfirmed, {
      data: { payment_id: 'txn_abc', stream_position: 7 },
      trace: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    });
    await ledger.publish(event);
    await ledger.publish(event); // a re-publication must not produce a second delivery
    const [received] = await waitFor('the signed delivery', () => receiver.received('/signed').length === 1 && receiver.received('/signed'));

    expect(received.verification).toMatchObject({ bodySignatureValid: true, timestampedSignatureValid: true, valid: true });
    expect(received.answeredStatus).toBe(200);
    expect(received.eventId).toBe(event.id);
    expect(received.headers['user-agent']).toMatch(/^pp-webhooks\//);
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(received.rawBody.toString('utf8'))).toEqual({
      id: event.id,
      type: 'payment.confirmed',
      created_at: event.created_at,
      livemode: false,
      data: { reference: event.data.reference, amount: 1250, status: 'CONFIRMED', metadata: event.data.metadata, session_id: event.data.session_id, payment_id: 'txn_abc' },
    });

    const tampered = Buffer.from(received.rawBody.toString('utf8').replace('"amount":1250', '"amount":1'));
    expect(verifyWebhook({ rawBody: tampered, headers: received.headers, secrets: [all.secret] })).toMatchObject({
      bodySignatureValid: false,
      timestampedSignatureValid: false,
      valid: false,
    });
    expect(verifyWebhook({ rawBody: received.rawBody, headers: received.headers, secrets: ['whsec_wrong'] }).valid).toBe(false);

    const attempts = await finalAttempts(merchant, event.id, 2, WebhookDeliveryStatus.Success);
    expect(new Set(attempts.map((a) => a.url))).toEqual(new Set([receiver.url('/signed'), receiver.url('/live-mode-path')]));
    expect(attempts[0]).toMatchObject({ delivery_status: 'SUCCESS', http_status: 200, attempt: 1, retry_count: 0, error_message: null });
    expect(receiver.received('/only-failures')).toEqual([]);
    expect(receiver.received('/stranger')).toEqual([]);
    expect(await deliveries(stranger, event.id)).toEqual([]);
  });

  it('drops a merchant event without an amount instead of delivering an amount of 0, and delivers the next one', async () => {
    const merchant = newMerchant();
    await endpoint(merchant, '/malformed');
    const malformed = ledger.event(merchant, MerchantEventType.PaymentConfirmed);
    delete (malformed.data as { amount?: number }).amount;
    const next = ledger.event(merchant, MerchantEventType.PaymentConfirmed);
    await ledger.publish(malformed);
    await ledger.publish(next);
    const [received] = await waitFor('the next event’s delivery', () => receiver.received('/malformed').length >= 1 && receiver.received('/malformed'));
    expect(received.eventId).toBe(next.id);
    expect(await deliveries(merchant, malformed.id)).toEqual([]);
    expect(receiver.received('/malformed').map((delivery) => delivery.eventId)).toEqual([next.id]);
    // Answered for good (terminated), not left to be redelivered for ever.
    await waitFor('the malformed event to be answered', async () => (await ledger.webhooksConsumer()).num_ack_pending === 0, { timeoutMs: 3_000 });
  });

  it('retries a 500 with the schedule: three attempts, the last one SUCCESS', async () => {
    const merchant = newMerchant();
    receiver.script('/flaky', [{ status: 500 }, { status: 500 }]);
    const { id } = await endpoint(merchant, '/flaky');
    const event = ledger.event(merchant, MerchantEventType.PaymentPendingReview);
    await ledger.publish(event);

    const attempts = await finalAttempts(merchant, event.id, 3, WebhookDeliveryStatus.Success);
    expect(attempts.map((a) => [a.webhook_id, a.attempt, a.retry_count, a.delivery_status, a.http_status])).toEqual([
      [id, 1, 0, 'FAILED', 500],
      [id, 2, 1, 'FAILED', 500],
      [id, 3, 2, 'SUCCESS', 200],
    ]);
    expect(attempts[0].error_message).toBe('endpoint answered 500 Internal Server Error');
    expect(attempts[0].next_retry_at).not.toBeNull();
    expect(attempts[2].next_retry_at).toBeNull();
    expect(attempts).toEqual(expect.arrayOf(expect.objectContaining({ latency_ms: expect.any(Number) })));
    const bodies = receiver.received('/flaky').map((r) => r.rawBody.toString('hex'));
    expect(new Set(bodies).size).toBe(1);
  });

  it('records timeouts and refused connections with their error, and exhausts the schedule', async () => {
    const merchant = newMerchant();
    receiver.script('/slow', [{ delayMs: 1500 }]);
    await endpoint(merchant, '/slow');
    const refused = await bus.request('webhooks.endpoints.create.v1', { merchant_id: merchant, livemode: false, url: CLOSED_PORT_URL });
    const event = ledger.event(merchant, MerchantEventType.PaymentFailed, { data: { status: 'FAILED' } });
    await ledger.publish(event);

    // The two endpoints run on their own timelines, a few jittered retries apart: wait for both to end.
    const attempts = await waitFor('every attempt to the closed port, and the slow endpoint’s retry', async () => {
      const all = await deliveries(merchant, event.id);
      const closedOnes = all.filter((a) => a.webhook_id === refused.id);
      const slowOnes = all.filter((a) => a.url === receiver.url('/slow'));
      const closedEnded = closedOnes.length === ATTEMPTS && closedOnes[ATTEMPTS - 1].delivery_status === 'EXHAUSTED';
      return closedEnded && slowOnes.length > 1 && slowOnes[slowOnes.length - 1].delivery_status !== 'PENDING' && all;
    });
    const slow = attempts.filter((a) => a.url === receiver.url('/slow'));
    expect(slow[0]).toMatchObject({ delivery_status: 'FAILED', http_status: null, error_message: 'timed out after 500 ms' });
    expect(slow[slow.length - 1].delivery_status).toBe('SUCCESS');
    const closed = attempts.filter((a) => a.webhook_id === refused.id);
    expect(closed.map((a) => a.delivery_status)).toEqual(['FAILED', 'FAILED', 'FAILED', 'FAILED', 'EXHAUSTED']);
    expect(closed).toEqual(
      expect.arrayOf(expect.objectContaining({ http_status: null, error_message: `connection refused by 127.0.0.1:${CLOSED_PORT}` })),
    );
  });

  it('disables an endpoint that answers 410 Gone and stops sending to it', async () => {
    const merchant = newMerchant();
    receiver.script('/gone', [{ status: 410 }]);
    const gone = await endpoint(merchant, '/gone');
    const first = ledger.event(merchant, MerchantEventType.PaymentConfirmed);
    await ledger.publish(first);

    const [attempt] = await finalAttempts(merchant, first.id, 1, WebhookDeliveryStatus.Exhausted);
    expect(attempt).toMatchObject({ http_status: 410, error_message: 'endpoint answered 410 Gone' });
    const [listed] = (await bus.request('webhooks.endpoints.list.v1', { merchant_id: merchant, livemode: false })).endpoints;
    expect(listed).toMatchObject({ id: gone.id, status: 'disabled', disabled_reason: 'endpoint answered 410 Gone' });

    const second = ledger.event(merchant, MerchantEventType.PaymentConfirmed);
    await ledger.publish(second);
    await waitFor('the second event to be recorded', async () => {
      const reply = await bus.request('webhooks.events.resend.v1', { merchant_id: merchant, livemode: false, event_id: second.id }).catch(() => undefined);
      return reply;
    });
    expect(await deliveries(merchant, second.id)).toEqual([]);
    expect(receiver.received('/gone')).toHaveLength(1);
  });

  it('honours Retry-After on 429', async () => {
    const merchant = newMerchant();
    receiver.script('/busy', [{ status: 429, retryAfter: '2' }]);
    await endpoint(merchant, '/busy');
    const event = ledger.event(merchant, MerchantEventType.PaymentConfirmed);
    await ledger.publish(event);

    const attempts = await finalAttempts(merchant, event.id, 2, WebhookDeliveryStatus.Success);
    expect(attempts[0]).toMatchObject({ delivery_status: 'FAILED', http_status: 429 });
    expect(Date.parse(attempts[0].next_retry_at ?? '') - Date.parse(attempts[0].created_at)).toBeGreaterThanOrEqual(2000);
    const [first, second] = receiver.received('/busy');
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(2000);
  });

  it('signs with both secrets during a rotation', async () => {
    const merchant = newMerchant();
    const created = await endpoint(merchant, '/rotating');
    const rotated = await bus.request('webhooks.endpoints.rotate-secret.v1', { merchant_id: merchant, livemode: false, endpoint_id: created.id });
    receiver.trust('/rotating', rotated.secret);
    const event = ledger.event(merchant, MerchantEventType.CheckoutSessionCompleted, { data: { status: 'COMPLETED' } });
    await ledger.publish(event);

    const [received] = await waitFor('the delivery', () => receiver.received('/rotating').length === 1 && receiver.received('/rotating'));
    expect(received.verification.secretsMatchedByV2.sort()).toEqual([created.secret, rotated.secret].sort());
    const withOld = verifyWebhook({ rawBody: received.rawBody, headers: received.headers, secrets: [created.secret] });
    const withNew = verifyWebhook({ rawBody: received.rawBody, headers: received.headers, secrets: [rotated.secret] });
    expect(withOld).toMatchObject({ timestampedSignatureValid: true, bodySignatureValid: false });
    expect(withNew).toMatchObject({ timestampedSignatureValid: true, bodySignatureValid: true, valid: true });
  });

  it('refuses a rotation while the secret the last one replaced still signs, even two at once, unless the current secret is to stop at once', async () => {
    const merchant = newMerchant();
    const scope = { merchant_id: merchant, livemode: false };
    const created = await endpoint(merchant, '/rotated-twice');
    const rotation = (key: string) => ({ ...scope, endpoint_id: created.id, idempotency: { key, fingerprint: `f-${key}` } });
    const settledRotations = await Promise.allSettled([
      bus.request('webhooks.endpoints.rotate-secret.v1', rotation('twice-a')),
      bus.request('webhooks.endpoints.rotate-secret.v1', rotation('twice-b')),
    ]);
    const [rotated] = settledRotations.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const [refused] = settledRotations.flatMap((result) => (result.status === 'rejected' ? [result.reason as DomainError] : []));
    expect(refused).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining(`still signs deliveries until ${rotated.previous_secret_expires_at}`) });
    expect(refused.message).toContain('previous_secret_expires_in 0');
    // The winner's repeat still answers it; a later rotation with an overlap is refused just the same.
    const winner = settledRotations[0].status === 'fulfilled' ? 'twice-a' : 'twice-b';
    expect(await bus.request('webhooks.endpoints.rotate-secret.v1', rotation(winner))).toEqual({ ...rotated, replayed: true });
    expect(await rejection(bus.request('webhooks.endpoints.rotate-secret.v1', { ...rotation('later'), previous_secret_expires_in: 60 }))).toMatchObject({ code: 'CONFLICT' });

    // The secret the receiver had still signs, beside the one rotated in.
    receiver.trust('/rotated-twice', rotated.secret);
    const event = ledger.event(merchant, MerchantEventType.PaymentConfirmed);
    await ledger.publish(event);
    const [received] = await waitFor('the delivery', () => receiver.received('/rotated-twice').length >= 1 && receiver.received('/rotated-twice'));
    expect(received.verification.secretsMatchedByV2.sort()).toEqual([created.secret, rotated.secret].sort());

    // A leak: rotated with no overlap, at once; only the new secret signs.
    const replaced = await bus.request('webhooks.endpoints.rotate-secret.v1', { ...rotation('leaked'), previous_secret_expires_in: 0 });
    expect(Date.parse(replaced.previous_secret_expires_at ?? '')).toBeLessThanOrEqual(Date.now());
  });

  it('answers a repeated creation or rotation (the same Idempotency-Key) with the endpoint, never a second endpoint or a second rotation', async () => {
    const merchant = newMerchant();
    const scope = { merchant_id: merchant, livemode: false };
    const creation = { ...scope, url: receiver.url('/once'), idempotency: { key: 'create-once', fingerprint: 'f-create' } };
    const created = await bus.request('webhooks.endpoints.create.v1', creation);
    expect(created.replayed).toBe(false);
    // Two repeats at once as well: the concurrent one loses the key's record and answers the same.
    const repeats = await Promise.all([bus.request('webhooks.endpoints.create.v1', creation), bus.request('webhooks.endpoints.create.v1', creation)]);
    expect(repeats).toEqual([{ ...created, replayed: true }, { ...created, replayed: true }]);
    const racing = { ...creation, url: receiver.url('/once-racing'), idempotency: { key: 'create-racing', fingerprint: 'f-racing' } };
    const [one, two] = await Promise.all([bus.request('webhooks.endpoints.create.v1', racing), bus.request('webhooks.endpoints.create.v1', racing)]);
    expect([one.replayed, two.replayed].sort()).toEqual([false, true]);
    expect({ ...two, replayed: one.replayed }).toEqual(one);
    expect((await bus.request('webhooks.endpoints.list.v1', scope)).endpoints.map((listed) => listed.id).sort()).toEqual([created.id, one.id].sort());
    expect(await rejection(bus.request('webhooks.endpoints.create.v1', { ...creation, idempotency: { key: 'create-once', fingerprint: 'other' } }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Idempotency-Key reused with different parameters',
    });

    const rotation = { ...scope, endpoint_id: created.id, idempotency: { key: 'rotate-once', fingerprint: 'f-rotate' } };
    const rotated = await bus.request('webhooks.endpoints.rotate-secret.v1', rotation);
    expect(rotated.secret).not.toBe(created.secret);
    expect(await Promise.all([bus.request('webhooks.endpoints.rotate-secret.v1', rotation), bus.request('webhooks.endpoints.rotate-secret.v1', rotation)])).toEqual([
      { ...rotated, replayed: true },
      { ...rotated, replayed: true },
    ]);
    // The same key (and the same empty body) for another endpoint or another operation is another request.
    for (const reuse of [
      bus.request('webhooks.endpoints.rotate-secret.v1', { ...rotation, endpoint_id: one.id }),
      bus.request('webhooks.endpoints.create.v1', { ...creation, idempotency: rotation.idempotency }),
    ]) {
      expect(await rejection(reuse)).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Idempotency-Key reused with different parameters' });
    }
    // Rotated once: the secret the receiver had still signs (a second rotation would have dropped it).
    receiver.trust('/once', created.secret);
    receiver.trust('/once', rotated.secret);
    const event = ledger.event(merchant, MerchantEventType.PaymentConfirmed);
    await ledger.publish(event);
    const [received] = await waitFor('the delivery', () => receiver.received('/once').length >= 1 && receiver.received('/once'));
    expect(received.verification.secretsMatchedByV2.sort()).toEqual([created.secret, rotated.secret].sort());
  });

  it('resends an event now, to every endpoint or to one', async () => {
    const merchant = newMerchant();
    const a = await endpoint(merchant, '/resend-a');
    const b = await endpoint(merchant, '/resend-b');
    const event = ledger.event(merchant, MerchantEventType.PaymentRefunded, { data: { status: 'REFUNDED' } });
    await ledger.publish(event);
    await finalAttempts(merchant, event.id, 2, WebhookDeliveryStatus.Success);

    const one = await bus.request('webhooks.events.resend.v1', { merchant_id: merchant, livemode: false, event_id: event.id, endpoint_id: b.id });
    expect(one.webhook_ids).toEqual([b.id]);
    await waitFor('the resent copy', () => receiver.received('/resend-b').length === 2);
    const all = await bus.request('webhooks.events.resend.v1', { merchant_id: merchant, livemode: false, event_id: event.id });
    expect(all.webhook_ids.sort()).toEqual([a.id, b.id].sort());
    await waitFor('both resent copies', () => receiver.received('/resend-a').length === 2 && receiver.received('/resend-b').length === 3);

    const copies = receiver.received('/resend-b');
    expect(new Set(copies.map((c) => c.rawBody.toString('hex'))).size).toBe(1);
    expect(copies.map((c) => c.verification)).toEqual(expect.arrayOf(expect.objectContaining({ valid: true })));
    const attempts = await waitFor('the resent attempts recorded', async () => {
      const all = await deliveries(merchant, event.id);
      return all.every((x) => x.delivery_status === 'SUCCESS') && all.length === 5 && all;
    });
    expect(attempts.filter((x) => x.webhook_id === b.id).map((x) => [x.attempt, x.delivery_status])).toEqual([
      [1, 'SUCCESS'],
      [2, 'SUCCESS'],
      [3, 'SUCCESS'],
    ]);
    expect(await rejection(bus.request('webhooks.events.resend.v1', { merchant_id: newMerchant(), livemode: false, event_id: event.id }))).toMatchObject({
      code: 'NOT_FOUND',
      message: 'Event not found',
    });
  });

  it('makes a resend asked for while the first attempt is still in flight, after that attempt ends', async () => {
    const merchant = newMerchant();
    let release!: () => void;
    // The first attempt is answered only once the resend was taken (well within the 500 ms timeout); later ones at once.
    receiver.script('/held', [{ until: new Promise<void>((resolve) => (release = resolve)) }]);
    await endpoint(merchant, '/held');
    const event = ledger.event(merchant, MerchantEventType.PaymentConfirmed);
    await ledger.publish(event);
    await waitFor('the first attempt to reach the receiver', () => receiver.received('/held').length === 1);

    await bus.request('webhooks.events.resend.v1', { merchant_id: merchant, livemode: false, event_id: event.id });
    release();
    // Attempt 1 succeeds when the resend reached the service within its 500 ms deadline, as it nearly always does;
    // on a machine slow enough to miss it, it fails, and the resend is still made once as attempt 2.
    const attempts = await finalAttempts(merchant, event.id, 2, WebhookDeliveryStatus.Success);
    expect(attempts.map((attempt) => attempt.attempt)).toEqual([1, 2]);
    expect(receiver.received('/held')).toHaveLength(2);
  });

  it('completes every delivery when the namespace is wiped from Redis mid-run', async () => {
    const merchant = newMerchant();
    const count = 30;
    // Every event's first attempt is asked to come back in 2 s: those retries sit as delayed jobs in Redis, and are wiped.
    receiver.scriptFirstOfEachEvent('/wiped', { status: 429, retryAfter: '2' });
    await endpoint(merchant, '/wiped');
    const events = Array.from({ length: count }, () => ledger.event(merchant, MerchantEventType.PaymentConfirmed));
    for (const event of events) await ledger.publish(event);
    await waitFor('every first attempt', () => new Set(receiver.received('/wiped').map((r) => r.eventId)).size === count);

    const removed = await wipeNamespace(stack.namespace);
    expect(removed).toBeGreaterThan(0);

    await waitFor(
      'every event delivered',
      () => new Set(receiver.received('/wiped').filter((r) => r.answeredStatus === 200).map((r) => r.eventId)).size === count,
      { timeoutMs: 20_000 },
    );
    // The receiver sees the POST before the service records its answer: wait for the record, then read it.
    const recorded = await waitFor('every delivery recorded', async () => {
      const all = await Promise.all(events.map(async (event) => (await deliveries(merchant, event.id)).map((a) => a.delivery_status)));
      return all.every((statuses) => statuses[statuses.length - 1] === 'SUCCESS') && all;
    });
    for (const statuses of recorded) expect(statuses).toEqual(['FAILED', 'SUCCESS']);
  });
});

/** Deletes every Redis key of the namespace (not FLUSHALL: other test runs share this Redis). */
async function wipeNamespace(namespace: string): Promise<number> {
  const redis = new Redis(testInfra.redisUrl);
  try {
    let removed = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${namespace}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) removed += await redis.del(...keys);
    } while (cursor !== '0');
    return removed;
  } finally {
    redis.disconnect();
  }
}

