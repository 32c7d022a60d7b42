import { CheckoutClient } from './client';
import { routePath } from './routes';

describe('ids in route paths', () => {
  afterEach(() => jest.restoreAllMocks());

  it.each(['..', '.', ''])('given the id %p, which the URL parser would resolve away, when a call needs it, then it is refused before any request', async (id) => {
    const fetch = jest.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('a unit test has no network'));
    const client = new CheckoutClient({ apiKey: 'pp_live_test_x' });
    await expect(client.events.resend(id)).rejects.toThrow(new TypeError(`resendEvent needs an id, not ${JSON.stringify(id)}`));
    await expect(client.refunds.cancel(id)).rejects.toThrow(TypeError);
    await expect(client.webhookEndpoints.delete(id)).rejects.toThrow(TypeError);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('escapes any other id into one path segment, dots and slashes included', () => {
    expect(routePath('resendEvent', '...')).toBe('/v1/events/.../resend');
    expect(routePath('retrieveEvent', 'evt_a.b')).toBe('/v1/events/evt_a.b');
    expect(routePath('retrieveEvent', '../x')).toBe('/v1/events/..%2Fx');
    expect(new URL(`http://localhost${routePath('cancelRefund', '%2e%2e')}`).pathname).toBe('/v1/refunds/%252e%252e/cancel');
    expect(() => routePath('retrieveRefund', undefined)).toThrow(/retrieveRefund needs an id, not none/);
  });
});
