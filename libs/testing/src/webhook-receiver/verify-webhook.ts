import type { IncomingHttpHeaders } from 'node:http';
import { bodySignature, hexEquals, verify, WebhookHeader, WebhookVerificationError } from '@pp/sdk';

export interface WebhookVerification {
  /** X-Service-Signature is the HMAC of the raw body under one of the secrets (during a rotation: the new one only). */
  bodySignatureValid: boolean;
  /** The SDK's verify accepts the delivery with one of the secrets alone: its V2 signature, timestamp, event id and, outside a rotation, X-Service-Signature. */
  timestampedSignatureValid: boolean;
  /** The secrets the SDK's verify accepts the delivery with, each alone (two during a rotation). */
  secretsMatchedByV2: string[];
  /** The SDK's verify accepts the delivery with the secrets, as a merchant's receiver would. */
  valid: boolean;
}

/**
 * Verifies a delivery with the SDK's `verify`, the code merchants run, and
 * adds what a test asks about the service's signing: which secrets sign it,
 * and whether the legacy header is the newest secret's.
 */
export function verifyWebhook(input: {
  rawBody: Buffer;
  headers: IncomingHttpHeaders;
  secrets: readonly string[];
  nowSeconds?: number;
  toleranceSeconds?: number;
}): WebhookVerification {
  const options = { nowSeconds: input.nowSeconds, toleranceSeconds: input.toleranceSeconds };
  const accepted = (secrets: string | readonly string[]) => accepts(() => verify(input.rawBody, input.headers, secrets, options));
  const secretsMatchedByV2 = input.secrets.filter((secret) => accepted(secret));
  const signature = input.headers[WebhookHeader.Signature];
  const bodySignatureValid = input.secrets.some((secret) => hexEquals(bodySignature(input.rawBody, secret), Array.isArray(signature) ? signature[0] : signature));
  return { bodySignatureValid, timestampedSignatureValid: secretsMatchedByV2.length > 0, secretsMatchedByV2, valid: accepted(input.secrets) };
}

/** Whether `check` passes; a refusal of the delivery is false, any other error (a bug) is thrown. */
function accepts(check: () => unknown): boolean {
  try {
    check();
    return true;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return false;
    throw error;
  }
}
