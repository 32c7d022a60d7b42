import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { DomainError, ErrorCode, EVENT_ID_PATTERN, type IdempotencyToken, MAX_WEBHOOK_ENDPOINTS, type MerchantScope, WEBHOOK_ENDPOINT_ID_PATTERN } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import type { FastifyReply } from 'fastify';
import { Idempotency, KeyScope } from '../access/request-params';
import { SecretKeyRoute } from '../access/route-access';
import { pageInMemory, parseListQuery } from '../http/list-query';
import { sendIdempotent } from '../idempotency/send-idempotent';
import { ApiIdempotentResponse, ApiJsonBody, ApiJsonResponse, ApiPageLimitQuery } from '../openapi/api-docs.decorators';
import { listSchema } from '../openapi/view-schema';
import { CreateWebhookEndpointBody, ListWebhookEndpointsParams, ResendEventBody, RotateWebhookEndpointSecretBody } from './webhook-endpoints.bodies';
import { DELETED_ENDPOINT_SCHEMA, RESEND_SCHEMA, WEBHOOK_ENDPOINT_SCHEMA, WEBHOOK_ENDPOINT_WITH_SECRET_SCHEMA } from './webhook-endpoints.schemas';

/** Ids that cannot exist are not worth a bus call. */
const ensure = (valid: boolean, message: string) => {
  if (!valid) throw new DomainError(ErrorCode.NotFound, message);
};

/** PRODUCT-RULES §D4 webhook endpoints, decided by the webhooks service, scoped to the key's merchant and mode. */
@ApiTags('webhooks')
@Controller('v1')
export class WebhookEndpointsController {
  constructor(private readonly bus: BusClient) {}

  @Post('webhook_endpoints')
  @SecretKeyRoute('webhooks.write')
  @ApiOperation({ summary: 'Register an endpoint; its signing secret is shown only in this answer' })
  @ApiJsonBody(CreateWebhookEndpointBody)
  @ApiIdempotentResponse({ status: 201, description: 'Endpoint registered' }, WEBHOOK_ENDPOINT_WITH_SECRET_SCHEMA)
  async create(@Body() body: CreateWebhookEndpointBody, @KeyScope() scope: MerchantScope, @Idempotency() idempotency: IdempotencyToken, @Res() reply: FastifyReply): Promise<void> {
    await sendIdempotent(reply, await this.bus.request('webhooks.endpoints.create.v1', { ...body, idempotency, ...scope }), 201);
  }

  @Get('webhook_endpoints')
  @SecretKeyRoute('webhooks.write')
  @ApiOperation({ summary: 'List the endpoints of the key’s merchant and mode, newest first (at most 16: all of them unless limit says fewer)' })
  @ApiPageLimitQuery(undefined, MAX_WEBHOOK_ENDPOINTS)
  @ApiQuery({ name: 'starting_after', required: false, description: 'Id of the last endpoint of the previous page' })
  @ApiJsonResponse(200, 'Endpoints, no secrets (header X-Has-More: true|false)', listSchema(WEBHOOK_ENDPOINT_SCHEMA))
  async list(@Query() raw: Record<string, unknown>, @KeyScope() scope: MerchantScope, @Res({ passthrough: true }) reply: FastifyReply) {
    const params = parseListQuery(ListWebhookEndpointsParams, raw);
    // The service answers the mode's endpoints whole (MAX_WEBHOOK_ENDPOINTS at most): paged here, as the other lists page.
    const { endpoints } = await this.bus.request('webhooks.endpoints.list.v1', scope);
    return pageInMemory(endpoints, params, MAX_WEBHOOK_ENDPOINTS, reply);
  }

  @Delete('webhook_endpoints/:id')
  @SecretKeyRoute('webhooks.write')
  @ApiOperation({ summary: 'Delete an endpoint; its pending deliveries stop' })
  @ApiJsonResponse(200, 'Deleted', DELETED_ENDPOINT_SCHEMA)
  delete(@Param('id') id: string, @KeyScope() scope: MerchantScope) {
    ensure(WEBHOOK_ENDPOINT_ID_PATTERN.test(id), 'Webhook endpoint not found');
    return this.bus.request('webhooks.endpoints.delete.v1', { ...scope, endpoint_id: id });
  }

  @Post('webhook_endpoints/:id/rotate_secret')
  @SecretKeyRoute('webhooks.write')
  @ApiOperation({
    summary:
      'Issue a new signing secret; the old one keeps signing X-Service-Signature-V2 (one v1 value per secret) for 24 hours, or ' +
      'previous_secret_expires_in seconds (0: stop it now); X-Service-Signature, a single HMAC, is the new secret’s at once. ' +
      'Refused (409) while the secret the last rotation replaced still signs, unless previous_secret_expires_in is 0',
  })
  @ApiJsonBody(RotateWebhookEndpointSecretBody, { required: false })
  @ApiIdempotentResponse({ status: 200, description: 'The endpoint with its new secret (header X-Cache-Lookup: HIT on a replay)' }, WEBHOOK_ENDPOINT_WITH_SECRET_SCHEMA)
  async rotate(
    @Param('id') id: string,
    @Body() body: RotateWebhookEndpointSecretBody,
    @KeyScope() scope: MerchantScope,
    @Idempotency() idempotency: IdempotencyToken,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    ensure(WEBHOOK_ENDPOINT_ID_PATTERN.test(id), 'Webhook endpoint not found');
    await sendIdempotent(reply, await this.bus.request('webhooks.endpoints.rotate-secret.v1', { ...body, ...scope, endpoint_id: id, idempotency }), 200);
  }

  @Post('webhook_endpoints/:id/disable')
  @HttpCode(200)
  @SecretKeyRoute('webhooks.write')
  @ApiOperation({ summary: 'Disable an endpoint: no deliveries until it is enabled again (what it missed is not resent)' })
  @ApiJsonResponse(200, 'The endpoint, disabled', WEBHOOK_ENDPOINT_SCHEMA)
  disable(@Param('id') id: string, @KeyScope() scope: MerchantScope) {
    ensure(WEBHOOK_ENDPOINT_ID_PATTERN.test(id), 'Webhook endpoint not found');
    return this.bus.request('webhooks.endpoints.set-status.v1', { ...scope, endpoint_id: id, status: 'disabled' });
  }

  @Post('webhook_endpoints/:id/enable')
  @HttpCode(200)
  @SecretKeyRoute('webhooks.write')
  @ApiOperation({ summary: 'Enable an endpoint again: events from now on are delivered' })
  @ApiJsonResponse(200, 'The endpoint, enabled', WEBHOOK_ENDPOINT_SCHEMA)
  enable(@Param('id') id: string, @KeyScope() scope: MerchantScope) {
    ensure(WEBHOOK_ENDPOINT_ID_PATTERN.test(id), 'Webhook endpoint not found');
    return this.bus.request('webhooks.endpoints.set-status.v1', { ...scope, endpoint_id: id, status: 'enabled' });
  }

  @Post('events/:id/resend')
  @SecretKeyRoute('webhooks.write')
  @ApiOperation({ summary: 'Deliver an event again now, to every subscribed endpoint or to one' })
  @ApiJsonBody(ResendEventBody)
  @ApiIdempotentResponse({ status: 200, description: 'The endpoints a new attempt was queued for (header X-Cache-Lookup: HIT on a replay)' }, RESEND_SCHEMA)
  async resend(
    @Param('id') id: string,
    @Body() body: ResendEventBody,
    @KeyScope() scope: MerchantScope,
    @Idempotency() idempotency: IdempotencyToken,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    ensure(EVENT_ID_PATTERN.test(id), 'Event not found');
    // The key goes with the command: a retry after an answer lost on the bus gets what was queued, not a second resend.
    const answer = await this.bus.request('webhooks.events.resend.v1', { ...body, event_id: id, idempotency, ...scope });
    await sendIdempotent(reply, { ...answer, replayed: answer.replayed ?? false }, 200);
  }
}
