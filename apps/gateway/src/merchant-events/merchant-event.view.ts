import type { MerchantEventView, StoredEvent } from '@pp/contracts';

/** A merchant-visible event as published on JetStream, shown the way GET /v1/events shows it (the ledger's merchant_events row holds the same fields). */
export const merchantEventView = (event: StoredEvent): MerchantEventView => ({
  id: event.id,
  type: event.type,
  livemode: event.metadata.livemode,
  data: event.data,
  created_at: event.created_at,
});
