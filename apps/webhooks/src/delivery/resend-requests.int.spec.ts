import { randomUUID } from 'node:crypto';
import { DomainError, ErrorCode, IDEMPOTENCY_KEY_REUSED, MerchantEventType, type ResendEventCommand } from '@pp/contracts';
import { bullQueueConnection, queuePrefix } from '@pp/platform';
import { testInfra, waitFor } from '@pp/testing';
import { Queue } from 'bullmq';
import { startWebhooksTestBed, type WebhooksTestBed } from '../testing/webhooks-test-bed';
import { type DeliveryJob, WebhookQueue } from './delivery.queue';

/*
 * A resend whose answer was lost (a bus deadline after the service committed)
 * is sent again by the client with the same Idempotency-Key, which the gateway
 * has freed: the webhooks service recorded the key with what it queued, and
 * answers that again, queuing nothing.
 */
describe('webhooks: a resend repeated with its Idempotency-Key', () => {
  let bed: WebhooksTestBed;
  let queue: Queue<DeliveryJob>;

  beforeAll(async () => {
    bed = await startWebhooksTestBed('whresendrequests');
    queue = new Queue<DeliveryJob>(WebhookQueue.Delivery, { connection: bullQueueConnection(testInfra.redisUrl), prefix: queuePrefix(bed.stack.namespace) });
  });
  afterAll(async () => {
    await queue?.close();
    await bed?.close();
  });

  /** A merchant's endpoint and an event delivered to it once. */
  const deliveredEvent = async (path: string) => {
    const merchant = `mer_resend${randomUUID().slice(0, 8)}`;
    const created = await bed.bus.request('webhooks.endpoints.create.v1', { merchant_id: merchant, livemode: false, url: bed.receiver.url(path) });
    bed.receiver.trust(path, created.secret);
    const event = bed.ledger.event(merchant, MerchantEventType.PaymentConfirmed);
    await bed.ledger.publish(event);
    await settled(event.id, 1);
    return { merchant, endpointId: created.id, eventId: event.id };
  };
  const deliveryOf = async (eventId: string) =>
    (await (await bed.stack.sql()).query(`SELECT status, attempts, resend_requested, next_attempt_at, updated_at FROM webhooks.deliveries WHERE event_id = $1`, [eventId]))
      .rows[0];
  /** Waits until the event's delivery has made `attempts` attempts, the last one answered. */
  const settled = (eventId: string, attempts: number) =>
    waitFor(`attempt ${attempts} of ${eventId} answered`, async () => {
      const delivery = await deliveryOf(eventId);
      return delivery?.status === 'SUCCESS' && delivery.attempts === attempts;
    });
  /** The ids of the jobs queued for resends of the event's deliveries, whatever became of them. */
  const resendJobs = async (eventId: string) => {
    const { rows } = await (await bed.stack.sql()).query(`SELECT id FROM webhooks.deliveries WHERE event_id = $1`, [eventId]);
    const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']);
    return jobs.filter((job) => rows.some((row) => job.id?.startsWith(`${row.id}.`)) && job.id?.includes('.resend-')).map((job) => job.id);
  };

  it('given a resend already made, when its request comes again with the same key, then the same answer comes back and nothing is queued or made due', async () => {
    const { merchant, endpointId, eventId } = await deliveredEvent('/resend-once');
    const command: ResendEventCommand = { merchant_id: merchant, livemode: false, event_id: eventId, idempotency: { key: `resend-${randomUUID()}`, fingerprint: 'f-resend' } };
    const first = await bed.bus.request('webhooks.events.resend.v1', command);
    expect(first).toEqual({ event_id: eventId, webhook_ids: [endpointId] });
    await settled(eventId, 2);
    const [delivery, jobs] = [await deliveryOf(eventId), await resendJobs(eventId)];
    expect(jobs).toHaveLength(1);

    const repeat = await bed.bus.request('webhooks.events.resend.v1', command);

    expect(repeat).toEqual({ ...first, replayed: true });
    expect(await deliveryOf(eventId)).toEqual(delivery);
    expect(await resendJobs(eventId)).toEqual(jobs);
    // The same key for another request is refused, as the gateway refuses it.
    const other = await bed.bus.request('webhooks.events.resend.v1', { ...command, idempotency: { ...command.idempotency!, fingerprint: 'f-other' } }).catch((error: DomainError) => error);
    expect(other).toMatchObject({ code: ErrorCode.ValidationFailed, message: IDEMPOTENCY_KEY_REUSED });
  });

  it('given the same request twice at once, then one resends and the other answers it as a repeat', async () => {
    const { merchant, endpointId, eventId } = await deliveredEvent('/resend-racing');
    const command: ResendEventCommand = { merchant_id: merchant, livemode: false, event_id: eventId, idempotency: { key: `resend-${randomUUID()}`, fingerprint: 'f-racing' } };

    const answers = await Promise.all([1, 2].map(() => bed.bus.request('webhooks.events.resend.v1', command)));

    expect(answers.map((answer) => answer.replayed ?? false).sort()).toEqual([false, true]);
    expect(answers.map((answer) => answer.webhook_ids)).toEqual([[endpointId], [endpointId]]);
    await settled(eventId, 2);
    expect(await resendJobs(eventId)).toHaveLength(1);
  });
});
