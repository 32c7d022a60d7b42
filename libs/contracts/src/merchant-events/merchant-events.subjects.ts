import { EVENT_ID_PATTERN } from '@pp/sdk';
import { IsBoolean, IsIn, IsISO8601, IsOptional, IsString, Length, Matches, ValidateBy } from 'class-validator';
import { isMerchantEventType, MerchantEventType } from '../ledger/merchant-events';
import { type ListPage, PageLimitParams } from '../list-page';
import { MerchantScope } from '../merchant-scope';
import { PAYMENT_ID_PATTERN } from '../payments/payments.subjects';
import type { MerchantEventView } from './merchant-event.views';

/** The SDK's rule, which it checks before sending: one definition for both. */
export { EVENT_ID_PATTERN };

/** Query string of GET /v1/events (PRODUCT-RULES §4.4); any failure is 400 'Invalid query parameters'. */
export class ListMerchantEventsParams extends PageLimitParams {
  @IsOptional()
  @IsIn(Object.values(MerchantEventType))
  type?: MerchantEventType;

  @IsOptional()
  @IsString()
  @Matches(EVENT_ID_PATTERN)
  starting_after?: string;
}

/** Comma-separated merchant event types: each one GET /v1/events?type= takes, so a misspelt type is refused rather than streaming nothing. */
const isEventTypeList = (value: unknown): boolean => typeof value === 'string' && value.split(',').every(isMerchantEventType);

/** Query string of GET /v1/events/stream: which types to send, and where to begin when no Last-Event-ID is given. */
export class EventStreamParams {
  @IsOptional()
  @IsString()
  @ValidateBy({
    name: 'isEventTypeList',
    validator: { validate: isEventTypeList, defaultMessage: () => `types must be comma-separated event types, each one of ${Object.values(MerchantEventType).join(', ')}` },
  })
  types?: string;

  /** An event id to continue after, or `start` for the whole log; default: from now. */
  @IsOptional()
  @IsString()
  @Matches(/^(start|evt_[a-z0-9]{8,64})$/)
  since?: string;
}

/** The order of a list of events: newest first (GET /v1/events), or oldest first (the event stream reading the log forward). */
export type MerchantEventOrder = 'newest_first' | 'oldest_first';

/** `ledger.merchant-events.list.v1`. */
export class ListMerchantEventsQuery extends ListMerchantEventsParams {
  /** Only the events about this payment (the dashboard's payment timeline); not a public query parameter. */
  @IsOptional()
  @IsString()
  @Matches(PAYMENT_ID_PATTERN)
  payment_id?: string;

  /** Newest first unless `oldest_first`; either way `starting_after` is the last event of the previous page. Not a public query parameter. */
  @IsOptional()
  @IsIn(['newest_first', 'oldest_first'] satisfies MerchantEventOrder[])
  order?: MerchantEventOrder;

  /**
   * Oldest first without `starting_after` only (ignored otherwise): the page
   * begins after the newest event, in log order, created before this time
   * (where a newest-first read back to it stops), so it holds every event
   * appended since, one that committed late included. Absent, the page
   * begins at the start of the log.
   */
  @IsOptional()
  @IsISO8601({ strict: true })
  created_since?: string;

  @IsString()
  @Length(1, 64)
  merchant_id!: string;

  @IsBoolean()
  livemode!: boolean;
}

/** `ledger.merchant-events.get.v1`. */
export class GetMerchantEventQuery extends MerchantScope {
  @IsString()
  @Length(1, 80)
  event_id!: string;
}

/** Served by the ledger, from its merchant_events read model; scoped by merchant and mode. */
export interface MerchantEventSubjects {
  /** In log order, newest first or (`order`) oldest first. NOT_FOUND 'Event not found' when starting_after is not an event of the caller. */
  'ledger.merchant-events.list.v1': { request: ListMerchantEventsQuery; reply: ListPage<MerchantEventView> };
  /** NOT_FOUND 'Event not found' for unknown ids and another merchant's or mode's events. */
  'ledger.merchant-events.get.v1': { request: GetMerchantEventQuery; reply: MerchantEventView };
}
