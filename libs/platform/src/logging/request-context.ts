import { AsyncLocalStorage } from 'node:async_hooks';

/** What follows one request through a process: its id and the time by which its caller gives up. */
export interface RequestContext {
  requestId: string;
  /** Epoch milliseconds after which nobody waits for the answer. */
  deadline?: number;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const requestContext = {
  run<T>(context: RequestContext, fn: () => T): T {
    return storage.run(context, fn);
  },
  current(): RequestContext | undefined {
    return storage.getStore();
  },
};
