import type { IncomingHttpHeaders } from 'node:http';
import {
  bodySignature,
  parseSignatureV2,
  timestampedSignature,
  WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS,
  WebhookHeader,
} from '@pp/contracts';
import { hexEquals } from '@pp/sdk';

export interface WebhookVerification {
  /** X-Service-Signature is the HMAC of the raw body under one of the secrets. */
  bodySignatureValid: boolean;
  /** X-Service-Signature-V2 carries a v1 for one of the secrets, over "<id>.<t>.<body>", with t recent and equal to X-Service-Timestamp. */
  timestampedSignatureValid: boolean;
  /** The secrets for which the V2 header carries a valid signature (two during a rotation). */
  secretsMatchedByV2: string[];
  valid: boolean;
}

export { hexEquals };

/** Verifies a delivery the way a merchant's receiver should: on the raw bytes, in constant time, with replay protection. */
export function verifyWebhook(input: {
  rawBody: Buffer;
  headers: IncomingHttpHeaders;
  secrets: readonly string[];
  nowSeconds?: number;
  toleranceSeconds?: number;
}): WebhookVerification {
  const header = (name: string) => {
    const value = input.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = input.toleranceSeconds ?? WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS;
  const signature = header(WebhookHeader.Signature);
  const bodySignatureValid = input.secrets.some((secret) => hexEquals(bodySignature(input.rawBody, secret), signature));
  const eventId = header(WebhookHeader.EventId) ?? '';
  const { timestamp, signatures } = parseSignatureV2(header(WebhookHeader.SignatureV2));
  const fresh = timestamp !== undefined && Math.abs(now - timestamp) <= tolerance && header(WebhookHeader.Timestamp) === String(timestamp);
  const secretsMatchedByV2 = fresh
    ? input.secrets.filter((secret) => {
        const expected = timestampedSignature(eventId, timestamp, input.rawBody, secret);
        return signatures.some((candidate) => hexEquals(expected, candidate));
      })
    : [];
  const timestampedSignatureValid = secretsMatchedByV2.length > 0;
  return { bodySignatureValid, timestampedSignatureValid, secretsMatchedByV2, valid: bodySignatureValid && timestampedSignatureValid };
}
