import { isMerchantEventType } from './merchant-events';

/*
 * JetStream layout of committed ledger events (the ledger's publisher is the
 * only writer). Do not rename without a migration: consumers bind to these.
 *
 *   stream   <PP_NAMESPACE>_LEDGER_EVENTS  (LEDGER_EVENTS without a namespace)
 *   subjects <PP_NAMESPACE>.ledger.events.<kind>.<event type>
 *            kind "merchant": merchant-visible events, e.g. ledger.events.merchant.checkout.session.expired
 *            kind "fact":     internal domain facts,  e.g. ledger.events.fact.session.created
 *   payload  the StoredEvent as JSON; header Nats-Msg-Id = event id (evt_…), x-request-id = its
 *            metadata.correlation_id when well formed (for whoever reads the stream; the webhooks consumer reads the
 *            payload's, which a ledger of the release before also sends), traceparent
 *
 * Each stream's messages are stored in position order; across streams, in
 * the order their transactions got their ids, at their first write (docs/ARCHITECTURE.md, Publication). Consumers filter with wildcards, e.g.
 * `<ns>.ledger.events.merchant.>` (webhooks) or `<ns>.ledger.events.*.payment.>`,
 * and must be idempotent on the event id (delivery is at least once).
 */
export const LEDGER_EVENTS_STREAM = 'LEDGER_EVENTS';

export type LedgerEventKind = 'merchant' | 'fact';

export const ledgerEventKind = (type: string): LedgerEventKind => (isMerchantEventType(type) ? 'merchant' : 'fact');

/** Subject of one event, without the namespace prefix (the publisher adds it). */
export const ledgerEventSubject = (type: string): string => `ledger.events.${ledgerEventKind(type)}.${type}`;

/** Every ledger event subject (without prefix): what the stream captures. */
export const LEDGER_EVENTS_SUBJECTS = 'ledger.events.>';

/** Filter for every merchant-visible event (without prefix). */
export const MERCHANT_EVENTS_FILTER = 'ledger.events.merchant.>';

/**
 * Where the stream republishes each merchant-visible event once stored (without prefix), for those who hear them
 * live (the gateway's event streams): the same payload and headers, and no reply subject. A plain subscription to
 * the stream's own subjects would also carry the ledger's publish, whose reply subject is the inbox awaiting
 * JetStream's acknowledgement, and a subscriber allowed to answer requests (allow_responses) could answer it first:
 * a forged acknowledgement that moves the publisher's checkpoint past an event the stream never stored.
 */
export const MERCHANT_EVENTS_FEED = 'ledger.feed.merchant.>';
