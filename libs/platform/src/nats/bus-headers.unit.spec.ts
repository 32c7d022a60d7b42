import { headers as natsHeaders } from 'nats';
import { BusHeader, buildHeaders, readHeaders, TRANSIT_MARGIN_MS } from './bus-headers';

describe('a bus message’s deadline', () => {
  afterEach(() => jest.useRealTimers());

  it('given a caller that waits 5 s, then it sends the time it still waits, and its epoch deadline for older receivers', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const sent = buildHeaders({ timeoutMs: 5_000 });
    expect(sent.get(BusHeader.TimeoutMs)).toBe('5000');
    expect(sent.get(BusHeader.Deadline)).toBe('1005000');
  });

  it('given a receiver whose clock is a minute behind the caller’s, then it dates the deadline by its own clock, less the transit margin', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const sent = buildHeaders({ timeoutMs: 5_000 });
    jest.setSystemTime(1_000_000 - 60_000);
    expect(readHeaders(sent).deadline).toBe(1_000_000 - 60_000 + 5_000 - TRANSIT_MARGIN_MS);
  });

  it('given a caller from before pp-timeout-ms, then its epoch deadline is read as it is; given none, there is none', () => {
    const old = natsHeaders();
    old.set(BusHeader.Deadline, '1234567');
    expect(readHeaders(old).deadline).toBe(1_234_567);
    expect(readHeaders(natsHeaders()).deadline).toBeUndefined();
    expect(readHeaders(undefined).deadline).toBeUndefined();
  });

  it('given a malformed time, then the epoch deadline beside it is used', () => {
    const odd = natsHeaders();
    odd.set(BusHeader.TimeoutMs, 'soon');
    odd.set(BusHeader.Deadline, '1234567');
    expect(readHeaders(odd).deadline).toBe(1_234_567);
  });
});

describe('a bus message’s request id', () => {
  it('given a plain id, then it is kept; given one with markup, line breaks or past 128 characters, then none is (the server makes its own)', () => {
    const withId = (id: string) => {
      const h = natsHeaders();
      h.set(BusHeader.RequestId, id);
      return readHeaders(h).requestId;
    };
    expect(withId('req_4f2a-9.b:c')).toBe('req_4f2a-9.b:c');
    expect(withId('<script>')).toBeUndefined();
    expect(withId('a'.repeat(129))).toBeUndefined();
    expect(withId('-leading-dash')).toBeUndefined();
  });
});
