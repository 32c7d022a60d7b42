import { type BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';

/** Streams one API key may hold open on one gateway: a client or two (the CLI's listen and tail), not thousands. */
export const MAX_STREAMS_PER_KEY = 10;

/**
 * The event streams being served. Each ends when its client goes away, and
 * all end before the HTTP server closes on shutdown (an open stream would
 * otherwise hold the server open); clients resume with Last-Event-ID.
 */
@Injectable()
export class OpenEventStreams implements BeforeApplicationShutdown {
  private readonly streams = new Set<AbortController>();
  private readonly perKey = new Map<string, number>();

  /** The stream's end signal, or undefined when the key already holds MAX_STREAMS_PER_KEY streams. */
  open(response: ServerResponse, keyId: string): AbortSignal | undefined {
    // A client that left before the stream opened: its 'close' has fired already, and would never free a place.
    if (response.destroyed) return AbortSignal.abort();
    const held = this.perKey.get(keyId) ?? 0;
    if (held >= MAX_STREAMS_PER_KEY) return undefined;
    this.perKey.set(keyId, held + 1);
    const stream = new AbortController();
    this.streams.add(stream);
    response.once('close', () => {
      stream.abort();
      this.streams.delete(stream);
      const left = (this.perKey.get(keyId) ?? 1) - 1;
      if (left > 0) this.perKey.set(keyId, left);
      else this.perKey.delete(keyId);
    });
    return stream.signal;
  }

  beforeApplicationShutdown(): void {
    for (const stream of this.streams) stream.abort();
  }
}
