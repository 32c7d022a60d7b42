import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  ALL_EVENTS,
  CreateWebhookEndpointCommand,
  DomainError,
  ErrorCode,
  ListWebhookEndpointsQuery,
  MAX_WEBHOOK_ENDPOINTS,
  type IdempotencyToken,
  type ReplyOf,
  RotateWebhookEndpointSecretCommand,
  SetWebhookEndpointStatusCommand,
  WebhookEndpointRef,
  type WebhookEndpointWithSecretView,
  SECRET_OVERLAP_SECONDS,
  IDEMPOTENCY_KEY_REUSED,
  SECRET_ROTATED_SINCE,
} from '@pp/contracts';
import { newId, randomToken } from '@pp/kernel';
import { CONFIG, Handles, isUniqueViolation, JsonLogger } from '@pp/platform';
import type { WebhooksConfig } from '../webhooks.config';
import { checkEndpointUrl } from './endpoint-url.policy';
import { rotationRefusal } from './secret-rotation.policy';
import { EndpointSecrets } from './endpoint-secrets';
import { type EndpointOperation, EndpointRepository, type Scope, toEndpointView, toEndpointWithSecretView } from './endpoint.repository';

/** The reason a merchant's own disabling records (shown with the endpoint, and on attempts it closes unsent). */
export const DISABLED_BY_MERCHANT = 'disabled by the merchant';

const newSecret = () => `whsec_${randomToken(32)}`;
const notFound = () => new DomainError(ErrorCode.NotFound, 'Webhook endpoint not found');

/** The answer to a repeated creation or rotation. */
type Replayed = WebhookEndpointWithSecretView & { replayed: true };

/** Endpoint registry (PRODUCT-RULES §D4 webhook endpoints); the gateway checks the webhooks.write scope. */
@Controller()
export class EndpointsController {
  constructor(
    private readonly endpoints: EndpointRepository,
    private readonly secrets: EndpointSecrets,
    @Inject(CONFIG) private readonly config: WebhooksConfig,
    private readonly logger: JsonLogger,
  ) {}

  @Handles('webhooks.endpoints.create.v1')
  async create(@Payload() command: CreateWebhookEndpointCommand): Promise<ReplyOf<'webhooks.endpoints.create.v1'>> {
    const earlier = await this.repeated(command, command.idempotency, 'create');
    if (earlier) return earlier;
    const url = await checkEndpointUrl(command.url, command.livemode, this.config.WEBHOOK_ALLOW_PRIVATE_URLS, (host, reason) =>
      // The merchant is told only that the host is not public; why is for the operators.
      this.logger.info('webhook endpoint url refused', { merchant_id: command.merchant_id, livemode: command.livemode, host, reason }),
    );
    const events = command.enabled_events ?? [ALL_EVENTS];
    const id = newId('webhookEndpoint');
    const secret = newSecret();
    const row = await this.endpoints
      .insertWithinLimit(
        {
          id,
          merchant_id: command.merchant_id,
          livemode: command.livemode,
          url,
          description: command.description ?? null,
          enabled_events: events.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(events)],
          secret_sealed: this.secrets.seal(id, secret),
        },
        MAX_WEBHOOK_ENDPOINTS,
        command.idempotency,
      )
      .catch((error: unknown) => this.repeatedAfterRace(command, command.idempotency, 'create', error));
    if (!row) {
      // A repeat of this request that took the last place while this one waited answers as that one did.
      const repeat = await this.repeated(command, command.idempotency, 'create');
      if (repeat) return repeat;
      throw new DomainError(ErrorCode.ValidationFailed, `Validation failed: at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints per mode`);
    }
    return 'secret' in row ? row : { ...toEndpointWithSecretView(row, secret), replayed: false };
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

  /**
   * Rotates unless the secret replaced last still signs (rotationRefusal: CONFLICT). The rotation applies only to
   * the secret the rule was asked about; another request's rotation in between sends it round again, so two at once
   * cannot both keep an overlap, the later dropping the secret the earlier kept.
   */
  @Handles('webhooks.endpoints.rotate-secret.v1')
  async rotateSecret(@Payload() command: RotateWebhookEndpointSecretCommand): Promise<ReplyOf<'webhooks.endpoints.rotate-secret.v1'>> {
    const overlapSeconds = command.previous_secret_expires_in ?? SECRET_OVERLAP_SECONDS;
    for (;;) {
      const earlier = await this.repeated(command, command.idempotency, 'rotate', command.endpoint_id);
      if (earlier) return earlier;
      const endpoint = await this.endpoints.find(command, command.endpoint_id);
      if (!endpoint) throw notFound();
      const now = new Date();
      const refusal = rotationRefusal(endpoint, overlapSeconds, now);
      if (refusal) throw new DomainError(ErrorCode.Conflict, refusal);
      const secret = newSecret();
      const row = await this.endpoints
        .rotate(command, endpoint, this.secrets.seal(endpoint.id, secret), new Date(now.getTime() + overlapSeconds * 1000), command.idempotency)
        .catch((error: unknown) => this.repeatedAfterRace(command, command.idempotency, 'rotate', error, command.endpoint_id));
      if (row) return 'secret' in row ? row : { ...toEndpointWithSecretView(row, secret), replayed: false };
    }
  }

  /**
   * The answer to a request whose Idempotency-Key an earlier creation or rotation recorded (its answer was lost,
   * and the gateway freed the key): the endpoint with the secret that request made, `replayed` so the gateway answers
   * it as its own replays. The same key with another request (another body, operation or endpoint) is refused, as the
   * gateway refuses it; a deleted endpoint is not found; once the secret was rotated since, the replay is refused
   * (SECRET_ROTATED_SINCE): whoever holds an old request's key must not be handed a secret rotated because it leaked.
   */
  private async repeated(
    scope: Scope,
    request: IdempotencyToken | undefined,
    operation: EndpointOperation,
    endpointId?: string,
  ): Promise<Replayed | undefined> {
    if (!request) return undefined;
    const earlier = await this.endpoints.requested(scope, request.key);
    if (!earlier) return undefined;
    const same = earlier.fingerprint === request.fingerprint && earlier.operation === operation && (endpointId === undefined || earlier.id === endpointId);
    if (!same) throw new DomainError(ErrorCode.ValidationFailed, IDEMPOTENCY_KEY_REUSED);
    if (earlier.deleted_at) throw notFound();
    if (!earlier.secret_unchanged) throw new DomainError(ErrorCode.Conflict, SECRET_ROTATED_SINCE);
    return { ...toEndpointWithSecretView(earlier, this.secrets.open(earlier.id, earlier.secret_sealed)), replayed: true };
  }

  /** A concurrent request with the same Idempotency-Key recorded it first (the statement failed whole): its answer. */
  private async repeatedAfterRace(
    scope: Scope,
    request: IdempotencyToken | undefined,
    operation: EndpointOperation,
    error: unknown,
    endpointId?: string,
  ): Promise<Replayed> {
    const earlier = isUniqueViolation(error) ? await this.repeated(scope, request, operation, endpointId) : undefined;
    if (!earlier) throw error;
    return earlier;
  }
}
