/** What a spec starts and must end: a stack (stop), a browser or a receiver (close). */
type Started = { stop(): Promise<unknown> } | { close(): Promise<unknown> };

/**
 * Starts a spec's resources at once, as Promise.all does, and answers them in
 * order. If one fails to start, the others are ended before the failure is
 * thrown: afterAll ends only what beforeAll assigned, and a browser or a
 * listening receiver nobody ends keeps the Jest worker from exiting.
 */
export async function startTogether<T extends readonly Promise<Started>[] | []>(starts: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const results: PromiseSettledResult<Started>[] = await Promise.allSettled(starts as readonly Promise<Started>[]);
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (!failed) return results.map((result) => (result as PromiseFulfilledResult<Started>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
  await Promise.allSettled(results.flatMap((result) => (result.status === 'fulfilled' ? [end(result.value)] : [])));
  throw failed.reason;
}

const end = (started: Started): Promise<unknown> => ('stop' in started ? started.stop() : started.close());
