import type { RequestOptions } from '../http/transport';
import type { CreateWebhookEndpointParams, DeletedWebhookEndpoint, RotateWebhookEndpointSecretParams, WebhookEndpoint, WebhookEndpointWithSecret } from '../types';
import { Resource } from './resource';

export class WebhookEndpoints extends Resource {
  /** POST /v1/webhook_endpoints: the answer holds the signing secret, shown only now. */
  create(params: CreateWebhookEndpointParams, options: RequestOptions = {}): Promise<WebhookEndpointWithSecret> {
    return this.call('createWebhookEndpoint', options, { body: params });
  }

  /** GET /v1/webhook_endpoints: every endpoint of the key's mode (16 at most, the route's default page). */
  list(options: RequestOptions = {}): Promise<WebhookEndpoint[]> {
    return this.call('listWebhookEndpoints', options);
  }

  /** DELETE /v1/webhook_endpoints/:id. A retry that finds it gone answers as deleted: the attempt whose answer was lost deleted it. */
  delete(id: string, options: RequestOptions = {}): Promise<DeletedWebhookEndpoint> {
    const deleted: DeletedWebhookEndpoint = { id, deleted: true };
    return this.call('deleteWebhookEndpoint', options, { id, answerIfGoneOnRetry: deleted });
  }

  /**
   * POST /v1/webhook_endpoints/:id/rotate_secret: the old secret keeps signing for 24 hours, so verify with both
   * meanwhile; `previous_secret_expires_in` (seconds, 0 to 86400) shortens that, 0 stopping it at once (a leaked secret).
   */
  rotateSecret(id: string, params: RotateWebhookEndpointSecretParams = {}, options: RequestOptions = {}): Promise<WebhookEndpointWithSecret> {
    return this.call('rotateWebhookEndpointSecret', options, { id, body: params });
  }

  /** POST /v1/webhook_endpoints/:id/disable: no deliveries until it is enabled again. */
  disable(id: string, options: RequestOptions = {}): Promise<WebhookEndpoint> {
    return this.call('disableWebhookEndpoint', options, { id });
  }

  /** POST /v1/webhook_endpoints/:id/enable: new events are delivered again; what it missed while disabled is not resent (use `events.resend`). */
  enable(id: string, options: RequestOptions = {}): Promise<WebhookEndpoint> {
    return this.call('enableWebhookEndpoint', options, { id });
  }
}
