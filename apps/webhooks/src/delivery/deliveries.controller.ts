import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DomainError, ErrorCode, IDEMPOTENCY_KEY_REUSED, ListEndpointDeliveriesQuery, ListEventDeliveriesQuery, type ReplyOf, ResendEventCommand } from '@pp/contracts';
import { Handles, isUniqueViolation } from '@pp/platform';
import { EndpointRepository } from '../endpoints/endpoint.repository';
import { deliveryAttemptView } from './delivery-attempt.view';
import { DeliveryQueue } from './delivery.queue';
import { DeliveryRepository, type DueDelivery } from './delivery.repository';

/** Delivery history for GET /v1/events/:id and an endpoint's recent deliveries, and manual resend (POST /v1/events/:id/resend). */
@Controller()
export class DeliveriesController {
  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly endpoints: EndpointRepository,
    private readonly queue: DeliveryQueue,
  ) {}

  @Handles('webhooks.deliveries.list.v1')
  async list(@Payload() query: ListEventDeliveriesQuery): Promise<ReplyOf<'webhooks.deliveries.list.v1'>> {
    const attempts = await this.deliveries.listAttempts(query, query.event_id);
    return { deliveries: attempts.map(deliveryAttemptView) };
  }

  @Handles('webhooks.endpoints.deliveries.v1')
  async listForEndpoint(@Payload() query: ListEndpointDeliveriesQuery): Promise<ReplyOf<'webhooks.endpoints.deliveries.v1'>> {
    if (!(await this.endpoints.find(query, query.endpoint_id))) throw new DomainError(ErrorCode.NotFound, 'Webhook endpoint not found');
    const attempts = await this.deliveries.listEndpointAttempts(query.endpoint_id, query.limit ?? 20);
    return { deliveries: attempts.map(({ event_id, event_type, ...attempt }) => ({ ...deliveryAttemptView(attempt), event_id, event_type })) };
  }

  /**
   * A repeat of a request whose answer was lost (a bus deadline after the commit; the gateway then frees the key)
   * answers what that request queued, queuing nothing: recorded with its Idempotency-Key as the deliveries are made due.
   */
  @Handles('webhooks.events.resend.v1')
  async resend(@Payload() command: ResendEventCommand): Promise<ReplyOf<'webhooks.events.resend.v1'>> {
    const earlier = await this.repeated(command);
    if (earlier) return earlier;
    if (!(await this.deliveries.eventExists(command, command.event_id))) throw new DomainError(ErrorCode.NotFound, 'Event not found');
    if (command.endpoint_id) {
      const endpoint = await this.endpoints.find(command, command.endpoint_id);
      if (!endpoint) throw new DomainError(ErrorCode.NotFound, 'Webhook endpoint not found');
      if (endpoint.status !== 'enabled') throw new DomainError(ErrorCode.Conflict, 'Webhook endpoint is disabled');
    }
    let due: DueDelivery[];
    try {
      due = await this.deliveries.resend(command, command.event_id, command.endpoint_id, command.idempotency);
    } catch (error) {
      // A concurrent repeat recorded the key first (this request's transaction failed whole, making nothing due): its answer.
      const repeat = isUniqueViolation(error) ? await this.repeated(command) : undefined;
      if (!repeat) throw error;
      return repeat;
    }
    // A distinct job id per request: the scheduled job of the same attempt may be waiting with a later delay. The
    // resend is committed: when Redis cannot take the job, the sweeper queues it (DeliveryQueue.requeue).
    await this.queue.enqueueOrLeaveToSweeper(due, `resend-${Date.now()}`);
    return { event_id: command.event_id, webhook_ids: due.map((delivery) => delivery.endpoint_id) };
  }

  /** The answer of an earlier resend with the command's Idempotency-Key; the same key with another request is refused, as the gateway refuses it. */
  private async repeated(command: ResendEventCommand): Promise<ReplyOf<'webhooks.events.resend.v1'> | undefined> {
    if (!command.idempotency) return undefined;
    const earlier = await this.deliveries.resendRequested(command, command.idempotency.key);
    if (!earlier) return undefined;
    if (earlier.fingerprint !== command.idempotency.fingerprint || earlier.event_id !== command.event_id) {
      throw new DomainError(ErrorCode.ValidationFailed, IDEMPOTENCY_KEY_REUSED);
    }
    return { event_id: earlier.event_id, webhook_ids: earlier.webhook_ids, replayed: true };
  }
}
