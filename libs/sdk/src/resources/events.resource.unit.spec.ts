import { CheckoutClient } from '../client';
import { CheckoutError, UnexpectedResponseError } from '../errors';
import type { EventType } from '../types';

const streamOf = (sse: string) => jest.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(sse, { headers: { 'content-type': 'text/event-stream' } }));
const read = async () => {
  const events = [];
  for await (const event of new CheckoutClient({ apiKey: 'pp_live_test_x' }).events.stream()) events.push(event);
  return events;
};
const EVENT = '{"id":"evt_1","type":"payment.confirmed","created_at":"2026-01-01T00:00:00Z","livemode":false,"data":{"amount":1}}';

describe('the event stream', () => {
  afterEach(() => jest.restoreAllMocks());

  it('given well-formed messages, when read, then it yields their events', async () => {
    streamOf(`id: evt_1\ndata: ${EVENT}\n\n`);
    expect(await read()).toEqual([JSON.parse(EVENT)]);
  });

  it('given an empty list of types, when the stream is opened, then no types parameter is sent (the gateway refuses an empty one); given some, they are sent comma-separated', async () => {
    const fetch = streamOf('');
    const urlOf = async (types: EventType[] | undefined) => {
      for await (const event of new CheckoutClient({ apiKey: 'pp_live_test_x' }).events.stream({ types })) void event;
      return new URL(String(fetch.mock.calls[fetch.mock.calls.length - 1][0]));
    };
    expect((await urlOf([])).searchParams.has('types')).toBe(false);
    expect((await urlOf(undefined)).searchParams.has('types')).toBe(false);
    expect((await urlOf(['payment.confirmed', 'payment.failed'])).searchParams.get('types')).toBe('payment.confirmed,payment.failed');
  });

  it.each([
    ['not JSON', 'data: {"id":"evt_2",'],
    ['JSON but not an object', 'data: "evt_2"'],
    ['an object without an id', 'data: {"type":"payment.confirmed","created_at":"2026-01-01T00:00:00Z","data":{}}'],
    ['an event without data', 'data: {"id":"evt_2","type":"payment.confirmed","created_at":"2026-01-01T00:00:00Z"}'],
  ])('given a message that is %s after a good one, when read, then the good one comes and then an UnexpectedResponseError', async (_what, bad) => {
    streamOf(`id: evt_1\ndata: ${EVENT}\n\nid: evt_2\n${bad}\n\n`);
    const events: unknown[] = [];
    const reading = (async () => {
      for await (const event of new CheckoutClient({ apiKey: 'pp_live_test_x' }).events.stream()) events.push(event);
    })();
    await expect(reading).rejects.toThrow(UnexpectedResponseError);
    await expect(read()).rejects.toThrow(new CheckoutError('the event stream sent a message that is not an event (message id evt_2)'));
    expect(events).toHaveLength(1);
  });
});
