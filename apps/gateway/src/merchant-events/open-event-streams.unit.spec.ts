import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { MAX_STREAMS_PER_KEY, OpenEventStreams } from './open-event-streams';

/** Enough of a response for OpenEventStreams: its 'close' event and whether it is destroyed. */
const response = (destroyed = false) => Object.assign(new EventEmitter(), { destroyed }) as unknown as ServerResponse;

describe('OpenEventStreams', () => {
  it('given a key holding the most streams, when one more opens, then it is refused until one of them closes', () => {
    const streams = new OpenEventStreams();
    const held = Array.from({ length: MAX_STREAMS_PER_KEY }, () => response());
    for (const open of held) expect(streams.open(open, 'key_a')?.aborted).toBe(false);
    expect(streams.open(response(), 'key_a')).toBeUndefined();
    expect(streams.open(response(), 'key_b')?.aborted).toBe(false);

    held[0].emit('close');
    expect(streams.open(response(), 'key_a')?.aborted).toBe(false);
  });

  it('given a client that left before its stream opened, when it opens, then the stream is over at once and takes no place', () => {
    const streams = new OpenEventStreams();
    for (let i = 0; i < MAX_STREAMS_PER_KEY * 2; i++) expect(streams.open(response(true), 'key_a')?.aborted).toBe(true);
    expect(streams.open(response(), 'key_a')?.aborted).toBe(false);
  });

  it('given open streams, when the application shuts down, then every one ends', () => {
    const streams = new OpenEventStreams();
    const signals = [streams.open(response(), 'key_a')!, streams.open(response(), 'key_b')!];
    streams.beforeApplicationShutdown();
    expect(signals.map((signal) => signal.aborted)).toEqual([true, true]);
  });
});
