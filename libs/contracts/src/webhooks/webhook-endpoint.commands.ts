import { Type } from 'class-transformer';
import { EVENT_ID_PATTERN } from '@pp/sdk';
import { ArrayMaxSize, ArrayMinSize, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { MerchantEventType } from '../ledger/merchant-events';
import { MerchantScope } from '../merchant-scope';
import { IdempotencyToken } from '../idempotency';
import { HTTP_URL_PATTERN } from '../http-url';
import { PlainText } from '../plain-text';
import { type WebhookEndpointStatus } from './webhook.views';

/** `enabled_events` entry that subscribes an endpoint to every merchant-visible event type, present and future. */
export const ALL_EVENTS = '*';

export const WEBHOOK_EVENT_CHOICES: readonly string[] = [ALL_EVENTS, ...Object.values(MerchantEventType)];

/** At most this many endpoints per merchant and mode. */
export const MAX_WEBHOOK_ENDPOINTS = 16;

/** CONFLICT for a replayed creation or rotation of an endpoint whose secret was rotated after it: the secret it made is gone. */
export const SECRET_ROTATED_SINCE = 'The endpoint’s secret was rotated after this request, so its secret is not shown again; rotate it to get a new one';

/** Longest webhook URL, as given and as stored once normalized (non-ASCII percent-encoded): delivery lists repeat it. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** A webhook endpoint's id as the webhooks service makes it: any other names no endpoint. */
export const WEBHOOK_ENDPOINT_ID_PATTERN = /^wh_[a-z0-9]{10,40}$/;

/** `webhooks.endpoints.create.v1`: body of POST /v1/webhook_endpoints plus the caller's scope. */
export class CreateWebhookEndpointCommand extends MerchantScope {
  /** https in live mode; hosts that resolve to private, loopback or metadata addresses are refused. */
  @IsString({ message: 'url must be a fully qualified URL' })
  @MaxLength(MAX_WEBHOOK_URL_LENGTH, { message: `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` })
  @Matches(HTTP_URL_PATTERN, { message: 'url must be a fully qualified URL' })
  url!: string;

  /** Defaults to ['*'] (every event type). */
  @IsOptional()
  @ArrayMinSize(1, { message: 'enabled_events must list at least one event type' })
  @ArrayMaxSize(WEBHOOK_EVENT_CHOICES.length)
  @IsIn(WEBHOOK_EVENT_CHOICES, { each: true, message: `enabled_events entries must be one of ${WEBHOOK_EVENT_CHOICES.join(', ')}` })
  enabled_events?: string[];

  @IsOptional()
  @IsString({ message: 'description must be a string' })
  @MaxLength(500, { message: 'description must be at most 500 characters' })
  @PlainText('description')
  description?: string;

  /** The API request's Idempotency-Key: a repeat answers the endpoint it made, with its secret. */
  @IsOptional()
  @ValidateNested()
  @Type(() => IdempotencyToken)
  idempotency?: IdempotencyToken;
}

export class ListWebhookEndpointsQuery extends MerchantScope {}

export class WebhookEndpointRef extends MerchantScope {
  @IsString()
  @Matches(WEBHOOK_ENDPOINT_ID_PATTERN, { message: 'endpoint_id must look like wh_…' })
  endpoint_id!: string;
}

/** How long a rotated-out secret keeps signing by default, and at most: receivers switch without dropping deliveries. */
export const SECRET_OVERLAP_SECONDS = 24 * 60 * 60;

/** `webhooks.endpoints.rotate-secret.v1`. */
export class RotateWebhookEndpointSecretCommand extends WebhookEndpointRef {
  /**
   * Seconds the old secret keeps signing beside the new one (SECRET_OVERLAP_SECONDS when absent); 0 stops it at
   * once, for a secret that leaked. While the secret an earlier rotation replaced still signs, only 0 may rotate
   * (it stops that one too); any other overlap is refused (CONFLICT), as it would drop that secret unannounced.
   */
  @IsOptional()
  @IsInt({ message: 'previous_secret_expires_in must be a whole number of seconds' })
  @Min(0, { message: `previous_secret_expires_in must be between 0 and ${SECRET_OVERLAP_SECONDS}` })
  @Max(SECRET_OVERLAP_SECONDS, { message: `previous_secret_expires_in must be between 0 and ${SECRET_OVERLAP_SECONDS}` })
  previous_secret_expires_in?: number;

  /** The API request's Idempotency-Key: a repeat answers the endpoint with the secret its request made, rotating nothing (CONFLICT SECRET_ROTATED_SINCE once rotated since). */
  @IsOptional()
  @ValidateNested()
  @Type(() => IdempotencyToken)
  idempotency?: IdempotencyToken;
}

/** `webhooks.events.resend.v1`: a new attempt now for the event's deliveries, or only for one endpoint. */
export class ResendEventCommand extends MerchantScope {
  /** Any id the gateway lets through (EVENT_ID_PATTERN): one the service does not know is not found, never invalid. */
  @IsString()
  @Matches(EVENT_ID_PATTERN, { message: 'event_id must look like evt_…' })
  event_id!: string;

  @IsOptional()
  @IsString()
  @Matches(WEBHOOK_ENDPOINT_ID_PATTERN, { message: 'endpoint_id must look like wh_…' })
  endpoint_id?: string;

  /** The API request's Idempotency-Key: a repeat answers what its request queued, queuing nothing. */
  @IsOptional()
  @ValidateNested()
  @Type(() => IdempotencyToken)
  idempotency?: IdempotencyToken;
}

/** `webhooks.deliveries.list.v1`: the delivery attempts of one event (GET /v1/events/:id). */
export class ListEventDeliveriesQuery extends MerchantScope {
  @IsString()
  @Matches(EVENT_ID_PATTERN, { message: 'event_id must look like evt_…' })
  event_id!: string;
}

export const WEBHOOK_ENDPOINT_STATUSES: readonly WebhookEndpointStatus[] = ['enabled', 'disabled'];

/** `webhooks.endpoints.set-status.v1`: the merchant disables or enables an endpoint (a disabled one gets no new deliveries). */
export class SetWebhookEndpointStatusCommand extends WebhookEndpointRef {
  @IsIn(WEBHOOK_ENDPOINT_STATUSES, { message: 'status must be enabled or disabled' })
  status!: WebhookEndpointStatus;
}

/** `webhooks.endpoints.deliveries.v1`: the endpoint's latest delivery attempts (the dashboard's Developers page). */
export class ListEndpointDeliveriesQuery extends WebhookEndpointRef {
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  limit?: number;
}
