import { createHmac } from 'node:crypto';

/*
 * How every webhook delivery is signed (PRODUCT-RULES §5 "Webhook signature", PRODUCT-RULES §D3).
 * Header names are wire-visible: do not rename.
 *
 *   X-Service-Signature     lowercase hex HMAC-SHA256(raw body, endpoint secret)
 *   X-Service-Event-Id      evt_…
 *   X-Service-Timestamp     unix seconds of this attempt
 *   X-Service-Signature-V2  t=<timestamp>,v1=<hex>[,v1=<hex>]: HMAC-SHA256 of
 *                           "<event id>.<timestamp>.<raw body>", one v1 per
 *                           valid secret (two during a secret rotation)
 *
 * Receivers verify the bytes they received, never a re-serialised body.
 */
export const WebhookHeader = {
  Signature: 'x-service-signature',
  EventId: 'x-service-event-id',
  Timestamp: 'x-service-timestamp',
  SignatureV2: 'x-service-signature-v2',
} as const;

/** How far a timestamped signature may be from the receiver's clock before it counts as a replay. */
export const WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS = 300;

export const bodySignature = (rawBody: Buffer, secret: string): string =>
  createHmac('sha256', secret).update(rawBody).digest('hex');

export const timestampedSignature = (eventId: string, timestamp: number, rawBody: Buffer, secret: string): string =>
  createHmac('sha256', secret).update(`${eventId}.${timestamp}.`).update(rawBody).digest('hex');

/**
 * Headers of one attempt. `secrets` lists the valid secrets, newest first:
 * X-Service-Signature uses the newest, the V2 header carries one v1 per secret.
 */
export function signatureHeaders(eventId: string, rawBody: Buffer, secrets: readonly string[], timestamp: number): Record<string, string> {
  return {
    [WebhookHeader.Signature]: bodySignature(rawBody, secrets[0]),
    [WebhookHeader.EventId]: eventId,
    [WebhookHeader.Timestamp]: String(timestamp),
    [WebhookHeader.SignatureV2]: [`t=${timestamp}`, ...secrets.map((s) => `v1=${timestampedSignature(eventId, timestamp, rawBody, s)}`)].join(','),
  };
}

/** Splits `t=…,v1=…,v1=…` into its timestamp and signatures (undefined parts when malformed). */
export function parseSignatureV2(value: string | undefined): { timestamp?: number; signatures: string[] } {
  const parts = (value ?? '').split(',').map((part) => part.trim());
  const t = parts.find((part) => part.startsWith('t='))?.slice(2);
  const timestamp = t && /^\d+$/.test(t) ? Number(t) : undefined;
  return { timestamp, signatures: parts.filter((part) => part.startsWith('v1=')).map((part) => part.slice(3)) };
}
