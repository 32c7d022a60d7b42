import { OmitType, PickType } from '@nestjs/mapped-types';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { CreateApiKeyCommand, CreateWebhookEndpointCommand, EVENT_ID_PATTERN, MerchantEventType, PageLimitParams, RotateWebhookEndpointSecretCommand } from '@pp/contracts';

/** Body of POST /api/developers/keys: the command's own fields and rules, the scope coming from the signed-in user, the Idempotency-Key from its header. */
export class CreateKeyBody extends OmitType(CreateApiKeyCommand, ['merchant_id', 'livemode', 'idempotency'] as const) {}

/** Body of POST /api/developers/webhook-endpoints, with the rules of POST /v1/webhook_endpoints. */
export class CreateEndpointBody extends OmitType(CreateWebhookEndpointCommand, ['merchant_id', 'livemode', 'idempotency'] as const) {}

/** Body of POST /api/developers/webhook-endpoints/:id/rotate-secret (may be empty), with the rules of the API's rotation. */
export class RotateEndpointBody extends PickType(RotateWebhookEndpointSecretCommand, ['previous_secret_expires_in'] as const) {}

/** Query of GET /api/events. */
export class ListEventsParams extends PageLimitParams {
  @IsOptional()
  @IsIn(Object.values(MerchantEventType))
  type?: MerchantEventType;

  @IsOptional()
  @IsString()
  @Matches(EVENT_ID_PATTERN)
  starting_after?: string;
}
