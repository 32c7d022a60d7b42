import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  DomainError,
  ErrorCode,
  EVENT_ID_PATTERN,
  ListMerchantEventsParams,
  type MerchantEventDetailView,
  MerchantEventType,
  type MerchantEventView,
  type MerchantScope,
  type WebhookDeliveryAttemptView,
} from '@pp/contracts';
import { BusClient, JsonLogger } from '@pp/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { KeyScope } from '../access/request-params';
import { SecretKeyRoute } from '../access/route-access';
import type { KeyPrincipal } from '../identity/principal';
import { ApiJsonResponse, ApiPageLimitQuery } from '../openapi/api-docs.decorators';
import { listSchema } from '../openapi/view-schema';
import { listPage, parseListQuery } from '../http/list-query';
import { deliveriesAsSeenBy } from './delivery-urls';
import { MERCHANT_EVENT_DETAIL_SCHEMA, MERCHANT_EVENT_SCHEMA } from './merchant-events.schemas';

/** How long an event's page waits for its delivery attempts before showing none. */
const DELIVERIES_TIMEOUT_MS = 1000;

/** PRODUCT-RULES §4.4 and §4.5: merchant-visible events of the key's merchant and mode, with their webhook deliveries. */
@ApiTags('events')
@Controller('v1/events')
export class MerchantEventsController {
  constructor(
    private readonly bus: BusClient,
    private readonly logger: JsonLogger,
  ) {}

  @Get()
  @SecretKeyRoute('events.read')
  @ApiOperation({ summary: 'List events, newest first' })
  @ApiQuery({ name: 'type', required: false, enum: Object.values(MerchantEventType) })
  @ApiPageLimitQuery()
  @ApiQuery({ name: 'starting_after', required: false, description: 'Id of the last event of the previous page' })
  @ApiJsonResponse(200, 'Events (header X-Has-More: true|false)', listSchema(MERCHANT_EVENT_SCHEMA))
  list(
    @Query() raw: Record<string, unknown>,
    @KeyScope() scope: MerchantScope,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MerchantEventView[]> {
    const params = parseListQuery(ListMerchantEventsParams, raw);
    return listPage(() => this.bus.request('ledger.merchant-events.list.v1', { ...params, ...scope }), reply);
  }

  @Get(':id')
  @SecretKeyRoute('events.read')
  @ApiOperation({ summary: 'Retrieve an event with its webhook delivery attempts' })
  @ApiJsonResponse(200, 'The event', MERCHANT_EVENT_DETAIL_SCHEMA)
  async retrieve(@Param('id') id: string, @KeyScope() scope: MerchantScope, @Req() request: FastifyRequest): Promise<MerchantEventDetailView> {
    if (!EVENT_ID_PATTERN.test(id)) throw new DomainError(ErrorCode.NotFound, 'Event not found');
    const [event, deliveries] = await Promise.all([
      this.bus.request('ledger.merchant-events.get.v1', { ...scope, event_id: id }),
      this.deliveriesOf(scope, id),
    ]);
    return { ...event, deliveries: deliveriesAsSeenBy((request.principal as KeyPrincipal).scopes, deliveries) };
  }

  /** The event's delivery attempts; an event page still answers (with none) while the webhooks service is away. */
  private async deliveriesOf(scope: MerchantScope, eventId: string): Promise<WebhookDeliveryAttemptView[]> {
    try {
      const { deliveries } = await this.bus.request(
        'webhooks.deliveries.list.v1',
        { ...scope, event_id: eventId },
        { timeoutMs: DELIVERIES_TIMEOUT_MS },
      );
      return deliveries;
    } catch (error) {
      this.logger.warn('event shown without deliveries: webhooks did not answer', {
        event_id: eventId,
        error: error instanceof Error ? error.message : String(error),
      });
      return [];
    }
  }
}
