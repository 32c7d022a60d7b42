import { type WebhookDeliveryAttemptView, WebhookDeliveryStatus } from '@pp/contracts';
import { deliveriesAsSeenBy } from './delivery-urls';

const delivery: WebhookDeliveryAttemptView = {
  webhook_id: 'wh_0000000001',
  url: 'https://hooks.shop.example:8443/in/tok_abc?token=sekret',
  delivery_status: WebhookDeliveryStatus.Success,
  http_status: 200,
  attempt: 1,
  retry_count: 0,
  latency_ms: 12,
  error_message: null,
  next_retry_at: null,
  created_at: '2030-01-01T00:00:00.000Z',
};

describe('what a key sees of an event’s delivery URLs (deliveriesAsSeenBy)', () => {
  it('given a key holding webhooks.write, then the URL is answered whole', () => {
    expect(deliveriesAsSeenBy(['events.read', 'webhooks.write'], [delivery])).toEqual([delivery]);
  });

  it('given a key with events.read only, then only scheme, host and port are answered', () => {
    expect(deliveriesAsSeenBy(['events.read'], [delivery])).toEqual([{ ...delivery, url: 'https://hooks.shop.example:8443' }]);
  });
});
