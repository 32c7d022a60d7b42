/** A client that has read nothing of a full buffer for as long as a write may wait. */
export class StalledReaderError extends Error {
  constructor(waitedMs: number) {
    super(`the client read nothing for ${waitedMs} ms`);
    this.name = 'StalledReaderError';
  }
}

/**
 * Writes to a response and, once its buffer is full, waits until the client
 * has read it ('drain') or the stream has ended: a client that reads slowly
 * holds its stream back instead of filling the gateway's memory. One that
 * reads nothing for `maxWaitMs` is given up on (StalledReaderError), so it
 * cannot keep one of its key's streams open for ever.
 */
export async function writeWhenReady(response: NodeJS.WritableStream, text: string, ended: AbortSignal, maxWaitMs: number): Promise<void> {
  if (response.write(text) || ended.aborted) return;
  await new Promise<void>((resolve, reject) => {
    const settle = (stalled: boolean) => {
      clearTimeout(timer);
      response.off('drain', ready);
      ended.removeEventListener('abort', ready);
      if (stalled) reject(new StalledReaderError(maxWaitMs));
      else resolve();
    };
    const ready = () => settle(false);
    const timer = setTimeout(() => settle(true), maxWaitMs);
    response.on('drain', ready);
    ended.addEventListener('abort', ready);
  });
}
