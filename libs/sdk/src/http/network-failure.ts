/*
 * Which network failures certainly came before the request was sent: the
 * connection itself could not be made (no address for the host, nothing
 * listening, no answer to the connect, a server certificate refused in the
 * TLS handshake), so not a byte of the request reached anything. fetch
 * (undici) reports them as a TypeError "fetch failed" whose `cause` carries
 * the code; Node's AggregateError for several addresses tried in turn
 * carries the first one's. Anything else (a reset or a closed socket, which
 * may come after the request was written, a timeout, a cause without a code)
 * may have come after the request reached the gateway.
 */

const NO_CONNECTION = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  // The server's certificate, refused by Node (OpenSSL's verification codes, and the name check) before any HTTP.
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'HOSTNAME_MISMATCH',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_REJECTED',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_CHAIN_TOO_LONG',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
  'INVALID_CA',
  'INVALID_PURPOSE',
  'PATH_LENGTH_EXCEEDED',
]);

/** True only when fetch's error says the connection could not be made; errors may come from another realm, so no instanceof. */
export function failedBeforeSending(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } | null } | null)?.cause?.code;
  return typeof code === 'string' && NO_CONNECTION.has(code);
}
