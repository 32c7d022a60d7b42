/**
 * Waits until every one of `statements`, sent together on one connection,
 * has answered, then gives their results or throws the first failure. Unlike
 * Promise.all it never returns while one is still running: a caller that
 * goes on to ROLLBACK TO SAVEPOINT after a failure must not have a statement
 * of the failed batch still on its way to the server behind it.
 */
export async function allAnswered<T extends readonly unknown[]>(statements: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(statements);
  const failed = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
