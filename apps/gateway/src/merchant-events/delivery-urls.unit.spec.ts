import { deliveryAttempt } from '../testing/delivery-attempt.fixture';
import { deliveriesAsSeenBy } from './delivery-urls';

const delivery = deliveryAttempt('https://hooks.shop.example:8443/in/tok_abc?token=sekret');

describe('what a key sees of an event’s delivery URLs (deliveriesAsSeenBy)', () => {
  it('given a key holding webhooks.write, then the URL is answered whole', () => {
    expect(deliveriesAsSeenBy(['events.read', 'webhooks.write'], [delivery])).toEqual([delivery]);
  });

  it('given a key with events.read only, then only scheme, host and port are answered', () => {
    expect(deliveriesAsSeenBy(['events.read'], [delivery])).toEqual([{ ...delivery, url: 'https://hooks.shop.example:8443' }]);
  });
});
