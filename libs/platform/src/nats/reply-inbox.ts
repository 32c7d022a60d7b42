import { freshRandomBytes, timerDelay } from '@pp/kernel';
import { type ConnectionOptions, createInbox, ErrorCode, type Msg, type MsgHdrs, type NatsConnection, NatsError } from 'nats';

interface Waiting {
  subject: string;
  resolve: (reply: Msg) => void;
  reject: (error: NatsError) => void;
  timer: NodeJS.Timeout;
}

const inboxes = new WeakMap<NatsConnection, ReplyInbox>();

/**
 * Request-reply on one connection through one wildcard subscription under the
 * connection's inbox prefix, as nats.js's own `request` does, but settling a
 * request once. nats.js settles an answered request a second time to cancel
 * it, building a NatsError with its stack trace for every reply: 1.4-2.1 % of
 * the CPU of every service that calls the bus (docs/PERFORMANCE.md). Errors
 * are NatsErrors with nats.js's codes (timeout, no responders, permissions
 * violation, connection closed), so callers translate them as before.
 */
export class ReplyInbox {
  /** The one inbox of `nc`, shared by every BusClient on that connection. */
  static of(nc: NatsConnection): ReplyInbox {
    let inbox = inboxes.get(nc);
    if (!inbox) {
      inbox = new ReplyInbox(nc);
      inboxes.set(nc, inbox);
    }
    return inbox;
  }

  private readonly waiting = new Map<string, Waiting>();
  private base = '';

  private constructor(private readonly nc: NatsConnection) {
    void this.watchRefusals();
    void nc.closed().then(() => this.rejectAll(NatsError.errorForCode(ErrorCode.ConnectionClosed)));
  }

  /** Publishes `data` to `subject` and resolves with the first reply, or rejects after `timeoutMs`. */
  request(subject: string, data: Uint8Array, headers: MsgHdrs | undefined, timeoutMs: number): Promise<Msg> {
    if (!this.base) this.subscribe();
    // Unguessable: the base is seen by every service this process calls, and a caller of one of their subjects may
    // name any inbox of that subject's callers as its reply (served-subjects.ts), so a counter here would let it
    // answer a request of ours that is waiting, in place of the service asked.
    const token = freshRandomBytes(16).toString('base64url');
    return new Promise<Msg>((resolve, reject) => {
      const timer = setTimeout(() => this.settle(token)?.reject(NatsError.errorForCode(ErrorCode.Timeout)), timerDelay(timeoutMs));
      this.waiting.set(token, { subject, resolve, reject, timer });
      try {
        this.nc.publish(subject, data, { reply: this.base + token, headers });
      } catch (error) {
        this.settle(token)?.reject(error as NatsError);
      }
    });
  }

  private subscribe(): void {
    // The prefix the connection was opened with (nats.js keeps its options on it): the only inbox its identity may read.
    const prefix = (this.nc as NatsConnection & { options?: ConnectionOptions }).options?.inboxPrefix;
    const base = `${createInbox(prefix)}.`;
    this.base = base;
    this.nc.subscribe(`${base}*`, {
      callback: (error, msg) => {
        if (error) {
          // The server refused the subscription itself: nothing on it can be answered; the next request subscribes again.
          if (this.base === base) this.base = '';
          this.rejectAll(error);
          return;
        }
        const waiting = this.settle(msg.subject.slice(base.length));
        if (!waiting) return; // answered after its deadline, or a second reply
        // A reply with no payload and status 503 is the server saying nobody subscribes to the subject.
        if (msg.data.length === 0 && msg.headers?.code === 503) waiting.reject(NatsError.errorForCode(ErrorCode.NoResponders));
        else waiting.resolve(msg);
      },
    });
  }

  /** A publish the server refused is reported on the connection's status, not to the request: fail the oldest request to that subject. */
  private async watchRefusals(): Promise<void> {
    for await (const status of this.nc.status()) {
      const context = (status as { permissionContext?: { operation: string; subject: string } }).permissionContext;
      if (context?.operation !== 'publish') continue;
      for (const [token, waiting] of this.waiting) {
        if (waiting.subject !== context.subject) continue;
        this.settle(token);
        waiting.reject(new NatsError(`Permissions Violation for Publish to "${context.subject}"`, ErrorCode.PermissionsViolation));
        break;
      }
    }
  }

  private settle(token: string): Waiting | undefined {
    const waiting = this.waiting.get(token);
    if (!waiting) return undefined;
    this.waiting.delete(token);
    clearTimeout(waiting.timer);
    return waiting;
  }

  private rejectAll(error: NatsError): void {
    for (const token of [...this.waiting.keys()]) this.settle(token)?.reject(error);
  }
}
