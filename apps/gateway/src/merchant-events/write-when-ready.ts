/**
 * Writes to a response and, once its buffer is full, waits until the client
 * has read it ('drain') or the stream has ended: a client that reads slowly,
 * or not at all, holds its stream back instead of filling the gateway's memory.
 */
export async function writeWhenReady(response: NodeJS.WritableStream, text: string, ended: AbortSignal): Promise<void> {
  if (response.write(text) || ended.aborted) return;
  await new Promise<void>((resolve) => {
    const ready = () => {
      response.off('drain', ready);
      ended.removeEventListener('abort', ready);
      resolve();
    };
    response.on('drain', ready);
    ended.addEventListener('abort', ready);
  });
}
