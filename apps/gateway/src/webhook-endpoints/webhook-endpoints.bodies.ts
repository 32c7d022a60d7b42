import { OmitType, PickType } from '@nestjs/swagger';
import { CreateWebhookEndpointCommand, PageLimitParams, ResendEventCommand, RotateWebhookEndpointSecretCommand, WEBHOOK_ENDPOINT_ID_PATTERN } from '@pp/contracts';
import { IsOptional, Matches } from 'class-validator';


/*
 * HTTP bodies derived from the webhooks service's commands: the scope comes
 * from the key and ids from the path, and the mapped types keep the
 * commands' validation rules, so the edge and the service check the same.
 */

/** POST /v1/webhook_endpoints: the idempotency token comes from the Idempotency-Key header. */
export class CreateWebhookEndpointBody extends OmitType(CreateWebhookEndpointCommand, ['merchant_id', 'livemode', 'idempotency'] as const) {}

/** POST /v1/events/:id/resend: optionally only one endpoint. */
export class ResendEventBody extends PickType(ResendEventCommand, ['endpoint_id'] as const) {}

/** POST /v1/webhook_endpoints/:id/rotate_secret: optionally how long the old secret keeps signing. */
export class RotateWebhookEndpointSecretBody extends PickType(RotateWebhookEndpointSecretCommand, ['previous_secret_expires_in'] as const) {}

/** GET /v1/webhook_endpoints: pages as every list does, over the mode's endpoints (MAX_WEBHOOK_ENDPOINTS at most). */
export class ListWebhookEndpointsParams extends PageLimitParams {
  @IsOptional()
  @Matches(WEBHOOK_ENDPOINT_ID_PATTERN)
  starting_after?: string;
}
