import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  ALL_EVENTS,
  CreateWebhookEndpointCommand,
  DomainError,
  ErrorCode,
  ListWebhookEndpointsQuery,
  MAX_WEBHOOK_ENDPOINTS,
  type ReplyOf,
  SetWebhookEndpointStatusCommand,
  WebhookEndpointRef,
} from '@pp/contracts';
import { newId, randomToken } from '@pp/kernel';
import { CONFIG, Handles } from '@pp/platform';
import type { WebhooksConfig } from '../webhooks.config';
import { checkEndpointUrl } from './endpoint-url.policy';
import { EndpointSecrets } from './endpoint-secrets';
import { EndpointRepository, toEndpointView, toEndpointWithSecretView } from './endpoint.repository';

/** How long a rotated-out secret keeps signing, so receivers can switch without dropping deliveries. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The reason a merchant's own disabling records (shown with the endpoint, and on attempts it closes unsent). */
export const DISABLED_BY_MERCHANT = 'disabled by the merchant';

const newSecret = () => `whsec_${randomToken(32)}`;
const notFound = () => new DomainError(ErrorCode.NotFound, 'Webhook endpoint not found');

/** Endpoint registry (PRODUCT-RULES §D4 webhook endpoints); the gateway checks the webhooks.write scope. */
@Controller()
export class EndpointsController {
  constructor(
    private readonly endpoints: EndpointRepository,
    private readonly secrets: EndpointSecrets,
    @Inject(CONFIG) private readonly config: WebhooksConfig,
  ) {}

  @Handles('webhooks.endpoints.create.v1')
  async create(@Payload() command: CreateWebhookEndpointCommand): Promise<ReplyOf<'webhooks.endpoints.create.v1'>> {
    const url = await checkEndpointUrl(command.url, command.livemode, this.config.WEBHOOK_ALLOW_PRIVATE_URLS);
    if ((await this.endpoints.countLive(command)) >= MAX_WEBHOOK_ENDPOINTS) {
      throw new DomainError(ErrorCode.ValidationFailed, `Validation failed: at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints per mode`);
    }
    const events = command.enabled_events ?? [ALL_EVENTS];
    const id = newId('webhookEndpoint');
    const secret = newSecret();
    const row = await this.endpoints.insert({
      id,
      merchant_id: command.merchant_id,
      livemode: command.livemode,
      url,
      description: command.description ?? null,
      enabled_events: events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(events)],
      secret_sealed: this.secrets.seal(id, secret),
      created_at: new Date(),
    });
    return toEndpointWithSecretView(row, secret);
  }

  @Handles('webhooks.endpoints.list.v1')
  async list(@Payload() query: ListWebhookEndpointsQuery): Promise<ReplyOf<'webhooks.endpoints.list.v1'>> {
    return { endpoints: (await this.endpoints.list(query)).map(toEndpointView) };
  }

  @Handles('webhooks.endpoints.delete.v1')
  async delete(@Payload() ref: WebhookEndpointRef): Promise<ReplyOf<'webhooks.endpoints.delete.v1'>> {
    if (!(await this.endpoints.softDelete(ref, ref.endpoint_id))) throw notFound();
    return { id: ref.endpoint_id, deleted: true };
  }

  @Handles('webhooks.endpoints.set-status.v1')
  async setStatus(@Payload() command: SetWebhookEndpointStatusCommand): Promise<ReplyOf<'webhooks.endpoints.set-status.v1'>> {
    const reason = command.status === 'disabled' ? DISABLED_BY_MERCHANT : null;
    const row = await this.endpoints.setStatus(command, command.endpoint_id, command.status, reason);
    if (!row) throw notFound();
    return toEndpointView(row);
  }

  @Handles('webhooks.endpoints.rotate-secret.v1')
  async rotateSecret(@Payload() ref: WebhookEndpointRef): Promise<ReplyOf<'webhooks.endpoints.rotate-secret.v1'>> {
    const secret = newSecret();
    const row = await this.endpoints.rotate(ref, ref.endpoint_id, this.secrets.seal(ref.endpoint_id, secret), new Date(Date.now() + SECRET_OVERLAP_MS));
    if (!row) throw notFound();
    return toEndpointWithSecretView(row, secret);
  }
}
