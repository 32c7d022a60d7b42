/*
 * The webhook signature scheme (PRODUCT-RULES §5, §D3) lives in the published
 * SDK, so the webhooks service that signs and merchants who verify run the
 * same code; the contracts re-export it for the services.
 */
export {
  bodySignature,
  parseSignatureV2,
  signatureHeaders,
  timestampedSignature,
  WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS,
  WebhookHeader,
} from '@pp/sdk';
