import { MIN_DEFER_MS, SLOW_MEMORY_MS, SlowEndpointGate } from './slow-endpoint-gate';

/** 64 places and a 10 s timeout: a slow endpoint may hold 4 of them, slow endpoints 32 in all; slow is 1 s. */
const gate = (left?: (endpointId: string) => void) => new SlowEndpointGate({ places: 64, attemptTimeoutMs: 10_000 }, left);

describe('SlowEndpointGate', () => {
  it('derives its bounds from the places and the attempt timeout', () => {
    expect(gate()).toMatchObject({ slowMs: 1000, perEndpoint: 4, allSlow: 32 });
    expect(new SlowEndpointGate({ places: 8, attemptTimeoutMs: 600 })).toMatchObject({ slowMs: 300, perEndpoint: 1, allSlow: 4 });
  });

  it('given an endpoint that answers fast, when many attempts go to it at once, then every one is let through', () => {
    const subject = gate();
    const passes = Array.from({ length: 64 }, () => subject.tryEnter('fast', 0));
    expect(passes.every(Boolean)).toBe(true);
    passes.forEach((pass) => {
      pass!.sending(0);
      pass!.leave(5);
    });
    expect(subject.tryEnter('fast', 10)).toBeDefined();
    expect(subject.slowEndpoints(10)).toEqual([]);
  });

  it('given a request in flight for less than a slow answer takes, then the endpoint is not slow yet', () => {
    const subject = gate();
    subject.enter('hanging', 0);
    expect(subject.isSlow('hanging', 999)).toBe(false);
    expect(subject.isSlow('hanging', 1000)).toBe(true);
    expect(subject.slowEndpoints(1000)).toEqual(['hanging']);
  });

  it('given attempts let through and still being claimed, then their waiting is not the endpoint\'s slowness, but they count against its share', () => {
    const subject = gate();
    const claiming = subject.tryEnter('busy-db', 0)!;
    expect(subject.isSlow('busy-db', 5000)).toBe(false);
    claiming.sending(5000);
    expect(subject.isSlow('busy-db', 5900)).toBe(false);
    expect(subject.isSlow('busy-db', 6000)).toBe(true);
    [1, 2, 3].forEach(() => subject.tryEnter('busy-db', 6000));
    expect(subject.tryEnter('busy-db', 6000)).toBeUndefined();
  });

  it('given a request in flight for a second, when more go to that endpoint, then only its share is let through', () => {
    const subject = gate();
    subject.enter('hanging', 0);
    const later = [1, 2, 3, 4].map(() => subject.tryEnter('hanging', 1000));
    expect(later.map(Boolean)).toEqual([true, true, true, false]);
    expect(subject.tryEnter('other', 1000)).toBeDefined();
  });

  it('given a slow attempt that ended, when the next goes to that endpoint, then it is still bounded until one answers fast', () => {
    const subject = gate();
    subject.enter('slow', 0).leave(1500);
    const held = [1, 2, 3, 4].map(() => subject.tryEnter('slow', 2000)!);
    expect(subject.tryEnter('slow', 2000)).toBeUndefined();
    held[0].sending(2000);
    held[0].leave(20);
    expect(subject.isSlow('slow', 2100)).toBe(false);
    expect([1, 2].map(() => subject.tryEnter('slow', 2100)).every(Boolean)).toBe(true);
  });

  it('given slow endpoints holding half the places, when another slow endpoint is asked for, then it waits, and a fast one does not', () => {
    const subject = gate();
    for (let e = 0; e < 8; e += 1) for (let i = 0; i < 4; i += 1) subject.enter(`slow${e}`, 0);
    subject.enter('slow8', 0);
    expect(subject.tryEnter('slow8', 1000)).toBeUndefined();
    expect(subject.tryEnter('fast', 1000)).toBeDefined();
  });

  it('given an attempt that was claimed by another replica, when its pass leaves without a time, then the endpoint keeps what it was known as', () => {
    const subject = gate();
    subject.enter('slow', 0).leave(2000);
    subject.tryEnter('slow', 2000)!.leave();
    expect(subject.isSlow('slow', 2000)).toBe(true);
    const pass = subject.enter('fine', 0);
    pass.leave();
    pass.leave(5000); // a second leave counts for nothing
    expect(subject.isSlow('fine', 0)).toBe(false);
  });

  it('says how many attempts turned away may come back: the slow endpoint\'s places left, or a batch once it answers fast', () => {
    const subject = gate();
    const first = subject.enter('slow', 0);
    subject.enter('slow', 0);
    expect(subject.room('slow', 1000)).toBe(2);
    subject.enter('slow', 1000);
    subject.enter('slow', 1000);
    expect(subject.room('slow', 1000)).toBe(0);
    first.leave(30);
    expect(subject.isSlow('slow', 1000)).toBe(true); // its other requests have run a second
    expect(subject.room('slow', 1000)).toBe(1);
    expect(subject.room('unknown', 1000)).toBe(4);
  });

  it('tells an attempt turned away to wait until the oldest request holding it back must have ended, within bounds', () => {
    const subject = gate();
    subject.enter('hanging', 0);
    expect(subject.retryAfterMs('hanging', 1000)).toBe(9000);
    expect(subject.retryAfterMs('hanging', 9900)).toBe(MIN_DEFER_MS);
    expect(subject.retryAfterMs('unknown', 0)).toBe(MIN_DEFER_MS);
  });

  it('given slow endpoints holding all their half, when a slow endpoint with nothing in flight is turned away, then it waits for the oldest of theirs, not a moment', () => {
    const subject = gate();
    for (let e = 0; e < 8; e += 1) for (let i = 0; i < 4; i += 1) subject.enter(`dead${e}`, 1000 + e);
    subject.enter('idle-slow', 0).leave(1500); // slow, nothing in flight
    expect(subject.tryEnter('idle-slow', 3000)).toBeUndefined();
    expect(subject.retryAfterMs('idle-slow', 3000)).toBe(8000);
  });

  it('tells who listens that an endpoint\'s place may be free, each time an attempt leaves', () => {
    const left: string[] = [];
    const subject = gate((endpointId) => left.push(endpointId));
    const pass = subject.enter('a', 0);
    pass.leave(10);
    pass.leave(10);
    subject.tryEnter('b', 0)!.leave();
    expect(left).toEqual(['a', 'b']);
  });

  it('forgets an endpoint slow and idle for an hour: it is listed slow no more, and learns its slowness again', () => {
    const subject = gate();
    subject.enter('was-slow', 0).leave(2000);
    expect(subject.slowEndpoints(2000 + SLOW_MEMORY_MS - 1)).toEqual(['was-slow']);
    expect(subject.slowEndpoints(2000 + SLOW_MEMORY_MS)).toEqual([]);
    expect(subject.isSlow('was-slow', 2000 + SLOW_MEMORY_MS)).toBe(false);
  });

  it('finds the first endpoint in turn with room: a fast one at once, a slow one under both bounds, none while the slow half is full', () => {
    const subject = gate();
    for (let e = 0; e < 8; e += 1) for (let i = 0; i < 4; i += 1) subject.enter(`dead${e}`, 0);
    subject.enter('slow', 0).leave(1500);
    expect(subject.firstWithRoom(['slow', 'dead0'], 2000)).toBeUndefined();
    expect(subject.firstWithRoom(['slow', 'recovered'], 2000)).toEqual({ endpointId: 'recovered', room: 4 });
    expect(subject.firstWithRoom(['dead1'], 2000)).toBeUndefined();
  });

  it('given the slow half with room, when a slow endpoint with some in flight is asked for, then its room is what its own share leaves', () => {
    const subject = gate();
    subject.enter('slow', 0);
    subject.enter('slow', 0);
    expect(subject.firstWithRoom(['slow'], 1000)).toEqual({ endpointId: 'slow', room: 2 });
  });
});
