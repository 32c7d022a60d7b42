import { EventEmitter } from 'node:events';
import { StalledReaderError, writeWhenReady } from './write-when-ready';

/** Enough of a response: write answers whether its buffer still has room, and 'drain' says it has again. */
class FakeResponse extends EventEmitter {
  readonly written: string[] = [];

  constructor(private readonly room: boolean) {
    super();
  }

  write(text: string): boolean {
    this.written.push(text);
    return this.room;
  }
}

const response = (room: boolean) => new FakeResponse(room);
const asStream = (fake: FakeResponse) => fake as unknown as NodeJS.WritableStream;

const settledWithin = async (promise: Promise<unknown>, ms = 20) => Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))]);

describe('writeWhenReady', () => {
  it('given a response with room, when a frame is written, then it goes on at once', async () => {
    const open = response(true);
    expect(await settledWithin(writeWhenReady(asStream(open), 'a', new AbortController().signal, 1_000))).toBe(true);
    expect(open.written).toEqual(['a']);
  });

  it('given a full response, when a frame is written, then it waits until the client has read, and leaves no listener behind', async () => {
    const full = response(false);
    const ended = new AbortController();
    const written = writeWhenReady(asStream(full), 'a', ended.signal, 1_000);
    expect(await settledWithin(written)).toBe(false);
    full.emit('drain');
    expect(await settledWithin(written)).toBe(true);
    expect(full.listenerCount('drain')).toBe(0);
  });

  it('given a full response, when the stream ends, then the write stops waiting', async () => {
    const full = response(false);
    const ended = new AbortController();
    const written = writeWhenReady(asStream(full), 'a', ended.signal, 1_000);
    ended.abort();
    expect(await settledWithin(written)).toBe(true);
    expect(full.listenerCount('drain')).toBe(0);
    // Once ended, nothing waits at all.
    expect(await settledWithin(writeWhenReady(asStream(full), 'b', ended.signal, 1_000))).toBe(true);
  });

  it('given a full response, when the client reads nothing for the longest wait, then the write gives up on it', async () => {
    const full = response(false);
    const written = writeWhenReady(asStream(full), 'a', new AbortController().signal, 10);
    await expect(written).rejects.toBeInstanceOf(StalledReaderError);
    expect(full.listenerCount('drain')).toBe(0);
  });
});
