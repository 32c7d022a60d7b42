import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookHeader } from '@pp/contracts';
import { verifyWebhook, type WebhookVerification } from './verify-webhook';

export interface ReceivedWebhook {
  path: string;
  /** The bytes as they arrived; parse them only after verifying. */
  rawBody: Buffer;
  headers: IncomingHttpHeaders;
  eventId: string | undefined;
  /** Epoch milliseconds with a fraction, from the monotonic clock (`receivedNow`): a latency measured against it has no 1 ms steps and no clock jumps. */
  receivedAt: number;
  verification: WebhookVerification;
  /** The status this receiver answered (401 when the signatures did not verify). */
  answeredStatus: number;
}

/** Now, on the clock `receivedAt` is read from: epoch milliseconds from this process's monotonic clock, to a microsecond or so. */
export const receivedNow = (): number => performance.timeOrigin + performance.now();

/** One scripted answer; unscripted requests get 200. */
export interface ScriptedReply {
  status?: number;
  /** Retry-After header value, e.g. "2". */
  retryAfter?: string;
  /** Wait this long before answering (to provoke the sender's timeout). */
  delayMs?: number;
  /** Answer only once this settles (to hold attempts in flight for as long as a test needs). */
  until?: Promise<unknown>;
}

/**
 * A real HTTP webhook endpoint for tests: records raw bodies and headers,
 * verifies them as a merchant's receiver does (the SDK's verify, on the raw
 * bytes) with the secrets it trusts for each path (answering 401 on a
 * refusal, as PRODUCT-RULES §5 asks of receivers), and
 * answers scripted statuses, Retry-After headers or delays.
 */
export class WebhookReceiver {
  private readonly records: ReceivedWebhook[] = [];
  private readonly secrets = new Map<string, string[]>();
  private readonly scripts = new Map<string, ScriptedReply[]>();
  private readonly firstReplies = new Map<string, { reply: ScriptedReply; answered: Set<string> }>();
  private readonly arrivalListeners = new Set<(record: ReceivedWebhook) => void>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = (req.url ?? '/').split('?')[0];
        const rawBody = Buffer.concat(chunks);
        const verification = verifyWebhook({ rawBody, headers: req.headers, secrets: receiver.secrets.get(path) ?? [] });
        const eventIdHeader = req.headers[WebhookHeader.EventId];
        const eventId = Array.isArray(eventIdHeader) ? eventIdHeader[0] : eventIdHeader;
        const reply: ScriptedReply = verification.valid ? receiver.scriptedReply(path, eventId) : { status: 401 };
        const answeredStatus = reply.status ?? 200;
        const record: ReceivedWebhook = { path, rawBody, headers: req.headers, eventId, receivedAt: receivedNow(), verification, answeredStatus };
        receiver.records.push(record);
        for (const listener of receiver.arrivalListeners) listener(record);
        const answer = () => {
          if (res.destroyed) return;
          res.writeHead(answeredStatus, reply.retryAfter ? { 'retry-after': reply.retryAfter } : {});
          res.end(answeredStatus === 401 ? 'signature mismatch' : 'ok');
        };
        if (reply.until) void reply.until.then(answer, answer);
        else if (reply.delayMs) setTimeout(answer, reply.delayMs).unref();
        else answer();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** URL of one path on this receiver; give each endpoint its own path. */
  url(path = '/'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Accept deliveries to `path` signed with `secret` (call again after a rotation to trust both). */
  trust(path: string, secret: string): void {
    this.secrets.set(path, [...(this.secrets.get(path) ?? []), secret]);
  }

  /** Queue answers for the next requests to `path` that verify. */
  script(path: string, replies: ScriptedReply[]): void {
    this.scripts.set(path, [...(this.scripts.get(path) ?? []), ...replies]);
  }

  /**
   * Answer `reply` to the first request of each event to `path`, whatever
   * order the events' attempts arrive in (a retry of one event may overtake
   * another event's first attempt on a loaded machine); later ones get the
   * path's queued `script` replies, or 200.
   */
  scriptFirstOfEachEvent(path: string, reply: ScriptedReply): void {
    this.firstReplies.set(path, { reply, answered: new Set() });
  }

  received(path?: string): ReceivedWebhook[] {
    return path ? this.records.filter((record) => record.path === path) : [...this.records];
  }

  /**
   * The first delivery, received already or still to come, that `matches`;
   * rejects after `timeoutMs`. Resolved by the arrival itself, not by polling,
   * so a test or the bench waiting for a webhook wakes once, when it comes.
   */
  whenReceived(matches: (record: ReceivedWebhook) => boolean, timeoutMs: number): Promise<ReceivedWebhook> {
    const already = this.records.find(matches);
    if (already) return Promise.resolve(already);
    return new Promise((resolve, reject) => {
      const listener = (record: ReceivedWebhook) => {
        if (!matches(record)) return;
        settle();
        resolve(record);
      };
      const timer = setTimeout(() => {
        settle();
        reject(new Error(`no matching webhook arrived within ${timeoutMs} ms`));
      }, timeoutMs);
      const settle = () => {
        clearTimeout(timer);
        this.arrivalListeners.delete(listener);
      };
      this.arrivalListeners.add(listener);
    });
  }

  private scriptedReply(path: string, eventId: string | undefined): ScriptedReply {
    const first = this.firstReplies.get(path);
    if (first && eventId !== undefined && !first.answered.has(eventId)) {
      first.answered.add(eventId);
      return first.reply;
    }
    return this.scripts.get(path)?.shift() ?? {};
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
