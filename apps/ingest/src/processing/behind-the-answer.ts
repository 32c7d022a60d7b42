import { requestContext } from '@pp/platform';

/**
 * Runs work that goes on after its request was answered (a posted notice's
 * hand-off) under that request's id, so that its logs and the calls it makes
 * still name the request (and it stays in the request's trace), but not
 * under its deadline: nobody waits for the work against it any more. Under
 * the gateway's 30 s submit deadline a hand-off started 30 s in (workers
 * busy) was refused at once ("Deadline passed before calling"), and waited a
 * sweep, a minute or more, while the payer's session ran out. Without it,
 * each call the work makes has its own timeout, as a sweeper's repeat does.
 */
export function behindTheAnswer<T>(work: () => Promise<T>): Promise<T> {
  const answered = requestContext.current();
  return answered ? requestContext.run({ requestId: answered.requestId }, work) : work();
}
