/*
 * Cancelling one operation when the caller's signal fires, leaving nothing
 * on that signal once the operation is over. The CLI passes one signal
 * (Ctrl-C) for its whole life to every request, wait and reconnect: a
 * listener added with { once: true } stays on it until it fires, and each
 * AbortSignal.any([signal, ...]) adds a reference to it that Node 20 never
 * drops. Here an operation adds one listener and removes it when it ends.
 */

export interface Operation {
  /** Aborted when the caller's signal is, or when the timeout passes. */
  readonly signal: AbortSignal;
  readonly timedOut: boolean;
  /** The timeout is paused: what is waited for now is not the other side (a stream's reader handling what came). */
  clearTimeout(): void;
  /** The timeout starts again, `ms` from now (a stream's idle limit, from each chunk). */
  restartTimeout(ms: number): void;
  /** Unlinks from the caller's signal and clears the timeout. */
  end(): void;
}

export function startOperation(parent: AbortSignal | undefined, timeoutMs: number): Operation {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(parent?.reason);
  const startTimer = (ms: number) =>
    setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError'));
    }, ms);
  let timer = startTimer(timeoutMs);
  if (parent?.aborted) onAbort();
  else parent?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    clearTimeout: () => clearTimeout(timer),
    restartTimeout: (ms) => {
      clearTimeout(timer);
      timer = startTimer(ms);
    },
    end: () => {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onAbort);
    },
  };
}

/** Waits `ms`, or less if `signal` fires: true when the whole wait passed. The listener goes when the timer fires. */
export function delay(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => (clearTimeout(timer), resolve(false));
    const timer = setTimeout(() => (signal?.removeEventListener('abort', onAbort), resolve(true)), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
