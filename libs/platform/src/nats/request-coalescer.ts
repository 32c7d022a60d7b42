import { DomainError, ErrorCode } from '@pp/contracts';
import { ErrorCode as NatsErrorCode, type NatsConnection, NatsError } from 'nats';
import { BusHeader, type HeaderPairs, natsHeadersOf } from './bus-headers';
import { ReplyInbox } from './reply-inbox';

/** Requests in one message at most. */
export const MAX_BATCH_REQUESTS = 64;
/** Payload bytes in one message at most, far below NATS's max_payload (1 MB by default); a larger request goes alone. */
export const MAX_BATCH_BYTES = 256 * 1024;

interface Pending {
  headers: HeaderPairs;
  /** The request's payload, JSON. */
  payload: string;
  timeoutMs: number;
  resolve(reply: unknown): void;
  reject(error: unknown): void;
}

const coalescers = new WeakMap<NatsConnection, RequestCoalescer>();

/**
 * Sends the requests a process makes to one subject in one turn of the event
 * loop as one message, and takes their answers back in as few (NatsBusServer
 * answers those that end together in one message). Under load a hop then
 * costs the bus, the sockets and both processes one message for many
 * requests instead of one each: the create path's floor rose from 0.45x to
 * 1.14x of the baseline so (docs/PERFORMANCE.md, "Batched bus hops"). A
 * request alone in its turn goes as before, with its metadata in NATS
 * headers. In a batch each request keeps its own headers (request id,
 * deadline, trace context), its own deadline and its own answer or error.
 *
 * Wire form of a batch: header `pp-batch` with the count; body a JSON array
 * of `{ "h": headers, "p": payload }`; each reply message a JSON array of
 * `[index, reply]`, `reply` being the BusReply a lone request would get.
 */
export class RequestCoalescer {
  /** The one coalescer of `nc`, shared by every BusClient on that connection. */
  static of(nc: NatsConnection): RequestCoalescer {
    let coalescer = coalescers.get(nc);
    if (!coalescer) {
      coalescer = new RequestCoalescer(ReplyInbox.of(nc));
      coalescers.set(nc, coalescer);
    }
    return coalescer;
  }

  private pending = new Map<string, Pending[]>();
  private flushScheduled = false;

  private constructor(private readonly inbox: ReplyInbox) {}

  /** Resolves with the reply's parsed JSON; rejects with a NatsError (timeout, no responders, refused) as a lone request would. */
  request(subject: string, payload: string, headers: HeaderPairs, timeoutMs: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const queue = this.pending.get(subject);
      if (queue) queue.push({ headers, payload, timeoutMs, resolve, reject });
      else this.pending.set(subject, [{ headers, payload, timeoutMs, resolve, reject }]);
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        // After the I/O of this turn: what every callback of the turn asked goes together.
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const pending = this.pending;
    this.pending = new Map();
    for (const [subject, requests] of pending) {
      for (const batch of inBatches(requests)) {
        if (batch.length === 1) this.sendAlone(subject, batch[0]);
        else this.sendBatch(subject, batch);
      }
    }
  }

  private sendAlone(subject: string, request: Pending): void {
    this.inbox.request(subject, Buffer.from(request.payload), natsHeadersOf(request.headers), request.timeoutMs).then(
      (msg) => request.resolve(JSON.parse(Buffer.from(msg.data).toString('utf8'))),
      request.reject,
    );
  }

  private sendBatch(subject: string, batch: Pending[]): void {
    const open = new Set(batch.keys());
    const settle = (index: number, outcome: (request: Pending) => void) => {
      if (!open.delete(index)) return;
      clearTimeout(timers[index]);
      outcome(batch[index]);
    };
    const longest = Math.max(...batch.map((request) => request.timeoutMs));
    // The message waits for the longest deadline; a request with a shorter one gives up on its own.
    const timers = batch.map((request, index) =>
      request.timeoutMs < longest ? setTimeout(() => settle(index, (r) => r.reject(NatsError.errorForCode(NatsErrorCode.Timeout))), request.timeoutMs) : undefined,
    );
    const body = `[${batch.map((request) => `{"h":${JSON.stringify(request.headers)},"p":${request.payload}}`).join(',')}]`;
    this.inbox.requestReplies(subject, Buffer.from(body), natsHeadersOf({ [BusHeader.Batch]: String(batch.length) }), longest, {
      receive: (msg) => {
        const parts = batchReply(msg.data);
        if (!parts) {
          const unreadable = new DomainError(ErrorCode.ServiceUnavailable, `${subject} answered a batch with an unreadable reply`);
          for (const index of [...open]) settle(index, (r) => r.reject(unreadable));
        } else {
          for (const [index, reply] of parts) settle(index, (r) => r.resolve(reply));
        }
        return open.size === 0;
      },
      reject: (error) => {
        for (const index of [...open]) settle(index, (r) => r.reject(error));
      },
    });
  }
}

/** Consecutive groups within the count and size limits; a request over the size limit goes alone. */
function inBatches(requests: Pending[]): Pending[][] {
  const batches: Pending[][] = [];
  let current: Pending[] = [];
  let bytes = 0;
  for (const request of requests) {
    const size = request.payload.length + 256; // headers and framing, roughly
    if (current.length > 0 && (current.length === MAX_BATCH_REQUESTS || bytes + size > MAX_BATCH_BYTES)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(request);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** `[index, reply]` pairs, or undefined when the message is not that. */
function batchReply(data: Uint8Array): Array<[number, unknown]> | undefined {
  try {
    const parts: unknown = JSON.parse(Buffer.from(data).toString('utf8'));
    if (Array.isArray(parts) && parts.every((part) => Array.isArray(part) && part.length === 2 && Number.isInteger(part[0]))) {
      return parts as Array<[number, unknown]>;
    }
  } catch {
    // not JSON: unreadable, as below
  }
  return undefined;
}
