import type {
  CreateWebhookEndpointCommand,
  ListEndpointDeliveriesQuery,
  ListEventDeliveriesQuery,
  ListWebhookEndpointsQuery,
  ResendEventCommand,
  RotateWebhookEndpointSecretCommand,
  SetWebhookEndpointStatusCommand,
  WebhookEndpointRef,
} from './webhook-endpoint.commands';
import type { ResendEventReply, WebhookDeliveryAttemptView, WebhookEndpointDeliveryView, WebhookEndpointView, WebhookEndpointWithSecretView } from './webhook.views';

/**
 * Served by the webhooks service. Every call is scoped by merchant and mode:
 * another merchant's or mode's endpoint is NOT_FOUND 'Webhook endpoint not found'.
 */
export interface WebhookSubjects {
  /**
   * `replayed`: the answer to a repeat of a recorded Idempotency-Key (the endpoint with the secret its request made; CONFLICT SECRET_ROTATED_SINCE once rotated since).
   * Errors: VALIDATION_FAILED (bad url, http in live mode, private address, unknown event type, too many endpoints).
   */
  'webhooks.endpoints.create.v1': { request: CreateWebhookEndpointCommand; reply: WebhookEndpointWithSecretView & { replayed: boolean } };
  /** Newest first, without secrets. */
  'webhooks.endpoints.list.v1': { request: ListWebhookEndpointsQuery; reply: { endpoints: WebhookEndpointView[] } };
  /** Pending deliveries to the endpoint stop. Errors: NOT_FOUND. */
  'webhooks.endpoints.delete.v1': { request: WebhookEndpointRef; reply: { id: string; deleted: true } };
  /**
   * New secret, shown once; the previous one keeps signing (second v1 signature) for 24 hours. `replayed`: the
   * answer to a repeat of a recorded Idempotency-Key. Errors: NOT_FOUND.
   */
  'webhooks.endpoints.rotate-secret.v1': { request: RotateWebhookEndpointSecretCommand; reply: WebhookEndpointWithSecretView & { replayed: boolean } };
  /**
   * Disabled: no new deliveries, and pending attempts close unsent; enabled again: new events are delivered,
   * what was skipped meanwhile is not resent (POST /v1/events/:id/resend does that). Idempotent. Errors: NOT_FOUND.
   */
  'webhooks.endpoints.set-status.v1': { request: SetWebhookEndpointStatusCommand; reply: WebhookEndpointView };
  /** The endpoint's latest attempts, newest first. Errors: NOT_FOUND. */
  'webhooks.endpoints.deliveries.v1': { request: ListEndpointDeliveriesQuery; reply: { deliveries: WebhookEndpointDeliveryView[] } };
  /**
   * A new attempt now, for every endpoint of the event or one. `replayed` (only on such an answer): the answer to a
   * repeat of a recorded Idempotency-Key, what its request queued, queuing nothing. Errors: NOT_FOUND 'Event not
   * found', 'Webhook endpoint not found'; VALIDATION_FAILED for the same key with another request.
   */
  'webhooks.events.resend.v1': { request: ResendEventCommand; reply: ResendEventReply & { replayed?: true } };
  /** The event's delivery attempts, oldest first (its latest ones only, past the webhooks service's MAX_EVENT_ATTEMPTS_LISTED); empty when nothing was sent. */
  'webhooks.deliveries.list.v1': { request: ListEventDeliveriesQuery; reply: { deliveries: WebhookDeliveryAttemptView[] } };
}
