import { createHash, createHmac } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { CheckoutClient } from '../client';
import { startOperation } from '../http/abort';
import { withoutUserinfo } from '../http/key-in-clear';
import type { Event } from '../types';
import { webhookEventBody } from '../webhooks/webhook-event-body';
import { signatureHeaders } from '../webhooks/webhook-signature';
import { followEvents } from './event-follower';
import type { Output } from './output';

const FORWARD_TIMEOUT_MS = 10_000;
/** Of the receiver's answer only the status is reported: a short body is read out so the connection can be reused, a longer one is dropped. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * The secret `listen` signs forwarded events with: derived from the API key,
 * so it stays the same across runs and a receiver configured once keeps
 * verifying, while revealing nothing about the key.
 */
export const forwardingSecret = (apiKey: string): string =>
  `whsec_${createHmac('sha256', apiKey).update('pp-checkout cli listen v1').digest('base64url')}`;

/** One cursor file per key and target, beside the config file. */
export const listenStatePath = (configFile: string, apiKey: string, forwardTo: string): string =>
  join(dirname(configFile), 'listen', `${createHash('sha256').update(`${apiKey}\n${forwardTo}`).digest('hex').slice(0, 24)}.json`);

export interface ListenOptions {
  apiKey: string;
  forwardTo: string;
  events?: string[];
  since?: string;
  statePath: string;
  intervalMs: number;
  signal: AbortSignal;
  output: Output;
}

/**
 * Forwards each new event to a local URL as a signed webhook delivery (the
 * service's body and headers) and prints the receiver's status. A receiver
 * that cannot be reached keeps the event for the next connection, made later
 * each time in a row (event-follower.ts); any answer, 2xx or not, moves on
 * (it is printed, and `events resend` exists). A redirect is such an answer,
 * not followed: the signed event would go to a place --forward-to did not name.
 */
export async function listen(client: CheckoutClient, options: ListenOptions): Promise<void> {
  const secret = forwardingSecret(options.apiKey);
  const wanted = options.events && !options.events.includes('*') ? new Set(options.events) : undefined;
  options.output.progress(`Connecting to the event log of ${client.apiBase}...`);
  await followEvents(client, {
    onReady: () => options.output.progress(`Ready. Forwarding test events to ${options.forwardTo}; signing secret ${secret} (Ctrl-C to stop)`),
    statePath: options.statePath,
    since: options.since,
    intervalMs: options.intervalMs,
    signal: options.signal,
    onError: (error) => options.output.progress(`! ${error instanceof Error ? error.message : String(error)} (retrying)`),
    handle: async (event) => {
      if (wanted && !wanted.has(event.type)) return true;
      return forward(event, secret, options);
    },
  });
}

async function forward(event: Event, secret: string, options: ListenOptions): Promise<boolean> {
  let body: string;
  try {
    body = JSON.stringify(webhookEventBody(event));
  } catch (error) {
    // An event the service would not deliver either (no amount or reference): it would be refused again on every
    // connection, holding back every event after it. Reported, and passed over.
    report(options.output, { event_id: event.id, type: event.type, status: null, error: error instanceof Error ? error.message : String(error), skipped: true });
    return true;
  }
  const started = Date.now();
  // Not AbortSignal.any([options.signal, ...]): that leaves a reference on the process-wide signal per event (abort.ts).
  const operation = startOperation(options.signal, FORWARD_TIMEOUT_MS);
  try {
    const response = await fetch(options.forwardTo, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'pp-checkout-cli', ...signatureHeaders(event.id, Buffer.from(body), [secret], Math.floor(started / 1000)) },
      body,
      signal: operation.signal,
      redirect: 'manual',
    });
    await discardAnswer(response);
    const redirect = response.status >= 300 && response.status < 400;
    report(options.output, {
      event_id: event.id,
      type: event.type,
      status: response.status,
      latency_ms: Date.now() - started,
      ...(redirect ? { error: `a redirect to ${withoutUserinfo(response.headers.get('location') ?? '(no location)')}, not followed` } : {}),
    });
    return true;
  } catch (error) {
    if (options.signal.aborted) return false;
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
    report(options.output, { event_id: event.id, type: event.type, status: null, error: cause });
    return false;
  } finally {
    operation.end();
  }
}

/** Reads up to MAX_ANSWER_BYTES of the answer, within the forward's timeout, and cancels the rest: a receiver's endless body must not hold every later event. */
async function discardAnswer(response: Response): Promise<void> {
  if (!response.body) return;
  const reader = response.body.getReader();
  for (let read = 0; read <= MAX_ANSWER_BYTES; ) {
    const chunk = await reader.read();
    if (chunk.done) return;
    read += chunk.value.byteLength;
  }
  await reader.cancel().catch(() => undefined);
}

function report(output: Output, delivery: { event_id: string; type: string; status: number | null; latency_ms?: number; error?: string; skipped?: true }): void {
  if (output.json) return output.out(JSON.stringify(delivery));
  const outcome =
    delivery.status !== null
      ? `[${delivery.status}] ${delivery.latency_ms} ms${delivery.error ? ` (${delivery.error}: not delivered)` : ''}`
      : delivery.skipped
        ? `not forwarded: ${delivery.error}`
        : `not delivered: ${delivery.error}, will retry`;
  output.out(`${new Date().toISOString()}  --> ${delivery.type} ${delivery.event_id}  ${outcome}`);
}
