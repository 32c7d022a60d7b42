import { WebhookReceiver } from './webhook-receiver';

/** An unsigned POST: the receiver records it (answering 401), which is all whenReceived needs. */
const post = (receiver: WebhookReceiver, path: string, body: string) => fetch(receiver.url(path), { method: 'POST', body }).then((response) => response.status);

describe('WebhookReceiver.whenReceived', () => {
  let receiver: WebhookReceiver;
  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterEach(() => receiver.close());

  it('given a matching delivery already received, resolves with it at once', async () => {
    await post(receiver, '/a', 'first');
    const record = await receiver.whenReceived((r) => r.path === '/a', 1000);
    expect(record.rawBody.toString()).toBe('first');
  });

  it('given none yet, resolves with the first matching delivery when it arrives, passing over the others', async () => {
    const arrival = receiver.whenReceived((r) => r.rawBody.toString() === 'wanted', 5000);
    expect(await post(receiver, '/b', 'other')).toBe(401);
    await post(receiver, '/b', 'wanted');
    const record = await arrival;
    expect(record.rawBody.toString()).toBe('wanted');
    expect(receiver.received('/b')).toHaveLength(2);
  });

  it('rejects when nothing matching arrives in time; later deliveries are still recorded', async () => {
    await expect(receiver.whenReceived(() => false, 50)).rejects.toThrow('no matching webhook arrived within 50 ms');
    await post(receiver, '/c', 'late');
    expect(receiver.received('/c')).toHaveLength(1);
  });
});
