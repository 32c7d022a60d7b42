import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { CheckoutClient, webhooks, WebhookVerificationError } from '@interac-checkout/node';
import { OrderBook } from './orders';

export interface MerchantServerOptions {
  /** A secret key of the merchant (pp_live_test_… in test mode). */
  apiKey: string;
  /** The gateway, e.g. http://localhost:3000. */
  apiBase: string;
  /** Where payers come back to: this server's own address, e.g. http://localhost:4000. */
  publicUrl: string;
  /** The endpoint's signing secret(s): the current one, and the previous one during a rotation. */
  webhookSecrets: string[];
  log?: (line: string) => void;
}

const MAX_BODY_BYTES = 64 * 1024;

/** A request refused for what it sent (400, 413), unlike a failed session call, which is answered 502. */
class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A merchant backend in one file: it sells one item, creates a checkout
 * session for each order, sends the payer to the hosted checkout page, and
 * marks the order paid when a verified payment.confirmed webhook arrives.
 *
 *   POST /orders        { item?, amount? } → 303 to the hosted checkout page
 *   GET  /orders/:id    the order (the success and cancel URLs land here)
 *   POST /webhooks      deliveries, verified on the raw bytes
 *
 * A POST body that is malformed JSON is answered 400, one over 64 KiB 413.
 */
export function createMerchantServer(options: MerchantServerOptions): { server: Server; orders: OrderBook } {
  const checkout = new CheckoutClient({ apiKey: options.apiKey, apiBase: options.apiBase });
  const orders = new OrderBook();
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));

  async function createOrder(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = parseBody(await readBody(req), req.headers['content-type']);
    const amount = Number(form.amount ?? 2500);
    if (!Number.isInteger(amount) || amount < 1) return send(res, 400, { error: 'amount must be a whole number of cents' });
    const id = orders.newId();
    const item = String(form.item ?? 'T-shirt').slice(0, 100);
    const session = await checkout.checkoutSessions.create(
      {
        amount,
        currency: 'cad',
        reference: id,
        success_url: `${options.publicUrl}/orders/${id}`,
        cancel_url: `${options.publicUrl}/orders/${id}?cancelled=1`,
        metadata: { item },
      },
      // One key per order: the SDK's retry after a lost answer gets the same session, never a second one.
      { idempotencyKey: `order-${id}` },
    );
    // Kept only now: a failed call leaves no unpayable order behind, and the payer's retry is a new order.
    const order = orders.add(id, item, amount, session.id);
    log(`order ${order.id}: checkout session ${session.id}, memo ${session.memo}`);
    res.writeHead(303, { Location: session.checkout_url, 'X-Order-Id': order.id }).end();
  }

  async function receiveWebhook(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let event;
    try {
      event = webhooks.verify(await readBody(req), req.headers, options.webhookSecrets);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      log(`webhook refused: ${error.message}`);
      return send(res, 400, { error: error.message });
    }
    if (event.type === 'payment.confirmed') {
      const paid = orders.markPaid(event.id, event.data.reference, event.data.amount, event.data.payment_id);
      if (paid) log(`order ${paid.id} paid (${paid.payment_id})`);
    } else if (event.type === 'checkout.session.expired') {
      const expired = orders.markExpired(event.id, event.data.reference);
      if (expired) log(`order ${expired.id} expired`);
    }
    send(res, 200, { received: true });
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const route =
      req.method === 'POST' && path === '/orders'
        ? createOrder(req, res)
        : req.method === 'POST' && path === '/webhooks'
          ? receiveWebhook(req, res)
          : req.method === 'GET' && path.startsWith('/orders/')
            ? Promise.resolve(showOrder(res, orders, decodeURIComponent(path.slice('/orders/'.length))))
            : Promise.resolve(send(res, 404, { error: 'Not found' }));
    route.catch((error: unknown) => {
      if (error instanceof RequestError) return send(res, error.status, { error: error.message });
      log(`error: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) send(res, 502, { error: 'Checkout is unavailable right now; try again' });
    });
  });
  return { server, orders };
}

function showOrder(res: ServerResponse, orders: OrderBook, id: string): void {
  const order = orders.get(id);
  if (!order) return send(res, 404, { error: 'Order not found' });
  send(res, 200, order);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

/** The raw bytes of the request, which webhook verification needs exactly as they arrived. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        // Stop keeping the body but leave the socket open: Node discards the rest, and the client reads the 413
        // instead of a reset connection.
        req.off('data', onData).off('end', onEnd);
        return reject(new RequestError(413, `The request body is over ${MAX_BODY_BYTES / 1024} KiB`));
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on('data', onData).on('end', onEnd).on('error', reject);
  });
}

function parseBody(raw: Buffer, contentType: string | undefined): Record<string, unknown> {
  if (raw.length === 0) return {};
  if (contentType?.startsWith('application/json')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new RequestError(400, 'The body is not valid JSON');
    }
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  }
  return Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
}
