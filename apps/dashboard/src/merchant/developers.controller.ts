import { Body, Controller, Delete, ForbiddenException, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  apiKeyDetail,
  type CheckoutPreviewView,
  type DashboardPrincipal,
  EVENT_ID_PATTERN,
  type IdempotencyToken,
  type IssuedMerchantApiKeyView,
  type ListPage,
  type MerchantApiKeyView,
  type MerchantEventView,
  type MerchantScope,
  type ResendEventReply,
  SHOWN_ONCE_CREATION_TIMEOUT_MS,
  type WebhookEndpointDeliveryView,
  type WebhookEndpointStatus,
  type WebhookEndpointView,
  type WebhookEndpointWithSecretView,
  WEBHOOK_ENDPOINT_ID_PATTERN,
  webhookUrlOrigin,
} from '@pp/contracts';
import { BusClient } from '@pp/platform';
import type { FastifyReply } from 'fastify';
import { Audited, targetParam, targetResult } from '../audit/audited.interceptor';
import { mayIssueKey } from '../auth/dashboard-permissions.policy';
import { Permit } from '../auth/route-access';
import { Principal, Scope } from '../auth/signed-in';
import { Idempotency } from '../http/idempotency-key';
import { notFound } from '../http/not-found';
import { parseInput } from '../http/parse-input';
import { answered, repeatNote } from '../http/repeated-answer';
import { ApiKeyCreationsLimiter, TOO_MANY_KEY_CREATIONS } from './api-key-creations.limiter';
import { CreateEndpointBody, CreateKeyBody, ListEventsParams, RotateEndpointBody } from './developers.bodies';
import { deliveriesOf, type EventWithDeliveries } from './event-deliveries';
import { webhookUrlsFor } from './webhook-url';

export const LIVE_REFUND_KEY_REFUSED = 'Your role may not issue a live key that can request refunds (a secret key, or a restricted key with refunds.write)';
const KEY_ID = /^key_[a-z0-9]{1,64}$/;

function matching(pattern: RegExp, id: string, what: string): string {
  if (!pattern.test(id)) throw notFound(what);
  return id;
}

/** The preview's session as the page gets it: without the payer's client secret. */
export type DashboardPreviewView = Omit<CheckoutPreviewView, 'session'> & { session: Omit<CheckoutPreviewView['session'], 'client_secret'> };

const withoutMode = ({ mode: _mode, ...query }: Record<string, unknown>) => query;

/**
 * The Developers page: API keys (shown once at creation), webhook endpoints
 * (secret shown once), and events with their delivery attempts, in the
 * user's merchant and the mode of `?mode=`.
 */
@Controller('api')
export class DevelopersController {
  constructor(
    private readonly bus: BusClient,
    private readonly keyCreations: ApiKeyCreationsLimiter,
  ) {}

  @Get('developers/keys')
  @Permit('merchant.read')
  keys(@Scope() scope: MerchantScope): Promise<{ keys: MerchantApiKeyView[] }> {
    return this.bus.request('identity.api-keys.list.v1', scope);
  }

  /**
   * 201 with the key, shown once; 429 past the merchant's key creations an hour (ApiKeyCreationsLimiter). A repeat of
   * the Idempotency-Key issues nothing: the gateway answers 409 naming the key it issued, which it keeps only as a hash.
   */
  @Post('developers/keys')
  @HttpCode(201)
  @Permit('developers.manage')
  @Audited('api_key.created', (key: IssuedMerchantApiKeyView) => ({ ...targetResult(key), detail: apiKeyDetail(key) }))
  async createKey(
    @Body() body: unknown,
    @Scope() scope: MerchantScope,
    @Principal() user: DashboardPrincipal,
    @Idempotency() idempotency: IdempotencyToken,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<IssuedMerchantApiKeyView | undefined> {
    const key = parseInput(CreateKeyBody, body);
    if (!mayIssueKey(user.role, { ...key, livemode: scope.livemode })) throw new ForbiddenException(LIVE_REFUND_KEY_REFUSED);
    if (await this.refusedKeyCreation(scope, reply)) return undefined;
    return this.bus.request('identity.api-keys.create.v1', { ...key, ...scope, idempotency }, { timeoutMs: SHOWN_ONCE_CREATION_TIMEOUT_MS });
  }

  /** Never limited: a leaked key must be revocable whatever was created (ApiKeyCreationsLimiter). */
  @Post('developers/keys/:id/revoke')
  @HttpCode(200)
  @Permit('developers.manage')
  @Audited('api_key.revoked', (key: MerchantApiKeyView) => ({ ...targetResult(key), detail: apiKeyDetail(key) }))
  revokeKey(@Param('id') id: string, @Scope() scope: MerchantScope): Promise<MerchantApiKeyView> {
    return this.bus.request('identity.api-keys.revoke.v1', { ...scope, key_id: matching(KEY_ID, id, 'API key') });
  }

  @Get('developers/webhook-endpoints')
  @Permit('merchant.read')
  async endpoints(@Scope() scope: MerchantScope, @Principal() user: DashboardPrincipal): Promise<{ endpoints: WebhookEndpointView[] }> {
    const { endpoints } = await this.bus.request('webhooks.endpoints.list.v1', scope);
    return { endpoints: webhookUrlsFor(user.role, endpoints) };
  }

  @Post('developers/webhook-endpoints')
  @HttpCode(201)
  @Permit('developers.manage')
  // The origin only: the URL's path and query are the merchant's and may carry a token, which the append-only trail must not keep.
  @Audited('webhook_endpoint.created', (endpoint: WebhookEndpointWithSecretView) => ({
    ...targetResult(endpoint),
    detail: `${webhookUrlOrigin(endpoint.url)}${repeatNote(endpoint)}`,
  }))
  async createEndpoint(
    @Body() body: unknown,
    @Scope() scope: MerchantScope,
    @Idempotency() idempotency: IdempotencyToken,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WebhookEndpointWithSecretView> {
    return answered(reply, await this.bus.request('webhooks.endpoints.create.v1', { ...parseInput(CreateEndpointBody, body), ...scope, idempotency }));
  }

  @Post('developers/webhook-endpoints/:id/rotate-secret')
  @HttpCode(200)
  @Permit('developers.manage')
  // Says when the old secret stops: at once (a leak) or after its overlap.
  @Audited('webhook_endpoint.secret_rotated', (endpoint: WebhookEndpointWithSecretView) => ({
    ...targetResult(endpoint),
    detail: `previous secret stops signing at ${endpoint.previous_secret_expires_at}${repeatNote(endpoint)}`,
  }))
  async rotateSecret(
    @Param('id') id: string,
    @Body() body: unknown,
    @Scope() scope: MerchantScope,
    @Idempotency() idempotency: IdempotencyToken,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<WebhookEndpointWithSecretView> {
    const endpointId = matching(WEBHOOK_ENDPOINT_ID_PATTERN, id, 'Webhook endpoint');
    const command = { ...parseInput(RotateEndpointBody, body), ...scope, endpoint_id: endpointId, idempotency };
    return answered(reply, await this.bus.request('webhooks.endpoints.rotate-secret.v1', command));
  }

  @Delete('developers/webhook-endpoints/:id')
  @HttpCode(200)
  @Permit('developers.manage')
  @Audited('webhook_endpoint.deleted', targetParam)
  deleteEndpoint(@Param('id') id: string, @Scope() scope: MerchantScope): Promise<{ id: string; deleted: true }> {
    return this.bus.request('webhooks.endpoints.delete.v1', { ...scope, endpoint_id: matching(WEBHOOK_ENDPOINT_ID_PATTERN, id, 'Webhook endpoint') });
  }

  @Post('developers/webhook-endpoints/:id/disable')
  @HttpCode(200)
  @Permit('developers.manage')
  @Audited('webhook_endpoint.disabled', targetParam)
  disableEndpoint(@Param('id') id: string, @Scope() scope: MerchantScope): Promise<WebhookEndpointView> {
    return this.setStatus(id, scope, 'disabled');
  }

  /** New events are delivered again; what it missed while disabled is not resent (an event's resend does that). */
  @Post('developers/webhook-endpoints/:id/enable')
  @HttpCode(200)
  @Permit('developers.manage')
  @Audited('webhook_endpoint.enabled', targetParam)
  enableEndpoint(@Param('id') id: string, @Scope() scope: MerchantScope): Promise<WebhookEndpointView> {
    return this.setStatus(id, scope, 'enabled');
  }

  @Get('developers/webhook-endpoints/:id/deliveries')
  @Permit('merchant.read')
  async endpointDeliveries(@Param('id') id: string, @Scope() scope: MerchantScope, @Principal() user: DashboardPrincipal): Promise<{ deliveries: WebhookEndpointDeliveryView[] }> {
    const { deliveries } = await this.bus.request('webhooks.endpoints.deliveries.v1', { ...scope, endpoint_id: matching(WEBHOOK_ENDPOINT_ID_PATTERN, id, 'Webhook endpoint'), limit: 10 });
    return { deliveries: webhookUrlsFor(user.role, deliveries) };
  }

  /**
   * Opens the merchant's preview checkout (always test mode): the stable
   * session, with a later deadline, or a new one. Its success and cancel
   * links return to the Developers page of the origin the guard checked.
   */
  @Post('developers/preview-checkout')
  @HttpCode(200)
  @Permit('developers.manage')
  async previewCheckout(@Headers('origin') origin: string, @Scope() scope: MerchantScope): Promise<DashboardPreviewView> {
    const { session, ...preview } = await this.bus.request('sessions.preview.v1', { merchant_id: scope.merchant_id, return_url: `${new URL(origin).origin}/developers` });
    const { client_secret: _secret, ...shown } = session;
    return { ...preview, session: shown };
  }

  @Get('events')
  @Permit('merchant.read')
  events(@Query() query: Record<string, unknown>, @Scope() scope: MerchantScope): Promise<ListPage<MerchantEventView>> {
    return this.bus.request('ledger.merchant-events.list.v1', { ...parseInput(ListEventsParams, withoutMode(query)), ...scope });
  }

  /** The event with its delivery attempts, null while the webhooks service does not answer (the event still shows). */
  @Get('events/:id')
  @Permit('merchant.read')
  async event(@Param('id') id: string, @Scope() scope: MerchantScope, @Principal() user: DashboardPrincipal): Promise<EventWithDeliveries> {
    const eventId = matching(EVENT_ID_PATTERN, id, 'Event');
    const [event, deliveries] = await Promise.all([
      this.bus.request('ledger.merchant-events.get.v1', { ...scope, event_id: eventId }),
      deliveriesOf(this.bus, scope, eventId, user),
    ]);
    return { ...event, deliveries };
  }

  @Post('events/:id/resend')
  @HttpCode(200)
  @Permit('developers.manage')
  @Audited('event.resent', (answer: ResendEventReply, request) => ({ ...targetParam(answer, request), detail: `${answer.webhook_ids.join(' ') || 'no endpoint'}${repeatNote(answer)}` }))
  async resend(
    @Param('id') id: string,
    @Scope() scope: MerchantScope,
    @Idempotency() idempotency: IdempotencyToken,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ResendEventReply> {
    // The key goes with the command: a retry after an answer lost on the bus gets what was queued, not a second resend.
    const answer = await this.bus.request('webhooks.events.resend.v1', { ...scope, event_id: matching(EVENT_ID_PATTERN, id, 'Event'), idempotency });
    return answered(reply, { ...answer, replayed: answer.replayed ?? false });
  }

  /** Counts a key creation; answers 429 with Retry-After itself, and says so, once the hour's budget is spent. */
  private async refusedKeyCreation(scope: MerchantScope, reply: FastifyReply): Promise<boolean> {
    const waitSeconds = await this.keyCreations.spend(scope.merchant_id);
    if (waitSeconds === undefined) return false;
    await reply.code(429).header('Retry-After', String(waitSeconds)).send({ error: TOO_MANY_KEY_CREATIONS });
    return true;
  }

  private setStatus(id: string, scope: MerchantScope, status: WebhookEndpointStatus): Promise<WebhookEndpointView> {
    return this.bus.request('webhooks.endpoints.set-status.v1', { ...scope, endpoint_id: matching(WEBHOOK_ENDPOINT_ID_PATTERN, id, 'Webhook endpoint'), status });
  }
}
