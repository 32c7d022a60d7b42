import { type BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';

/**
 * The event streams being served. Each ends when its client goes away, and
 * all end before the HTTP server closes on shutdown (an open stream would
 * otherwise hold the server open); clients resume with Last-Event-ID.
 */
@Injectable()
export class OpenEventStreams implements BeforeApplicationShutdown {
  private readonly streams = new Set<AbortController>();

  open(response: ServerResponse): AbortSignal {
    const stream = new AbortController();
    this.streams.add(stream);
    response.once('close', () => {
      stream.abort();
      this.streams.delete(stream);
    });
    return stream.signal;
  }

  beforeApplicationShutdown(): void {
    for (const stream of this.streams) stream.abort();
  }
}
