import { DomainError, ErrorCode, MAX_WEBHOOK_URL_LENGTH } from '@pp/contracts';
import { BlockedAddressError, resolveDeliveryAddress } from '../network/address-guard';

/**
 * Rules for a URL at registration: a well-formed http(s) URL without
 * credentials, https in live mode, and (unless private URLs are allowed) a
 * host that resolves only to public addresses. Delivery checks the address
 * again, since DNS may change. A refused host gets one answer whatever the
 * reason (no address, or a private one): `refused` is told the reason, for
 * the server's log.
 */
export async function checkEndpointUrl(
  raw: string,
  livemode: boolean,
  allowPrivate: boolean,
  refused: (host: string, reason: string) => void = () => undefined,
): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('url must be a fully qualified URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('url must use http or https');
  if (livemode && url.protocol !== 'https:') throw invalid('url must use https in live mode');
  if (url.username || url.password) throw invalid('url must not contain credentials');
  // Stored as normalized: a character outside ASCII becomes up to 9 ("€" is %E2%82%AC), so 2048 given could be 18,000 kept.
  const normalized = url.toString();
  if (normalized.length > MAX_WEBHOOK_URL_LENGTH) throw invalid(`url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters once encoded (characters outside ASCII count as their %XX escapes)`);
  try {
    await resolveDeliveryAddress(url.hostname, allowPrivate);
  } catch (error) {
    if (error instanceof BlockedAddressError) {
      refused(url.hostname, error.detail);
      throw invalid(`url is not allowed: ${error.message}`);
    }
    throw error;
  }
  return normalized;
}

const invalid = (message: string) => new DomainError(ErrorCode.ValidationFailed, `Validation failed: ${message}`);
