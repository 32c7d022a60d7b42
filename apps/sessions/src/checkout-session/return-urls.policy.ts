import { DomainError, ErrorCode } from '@pp/contracts';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const RETURN_URL_FIELDS = ['success_url', 'cancel_url'] as const;

/**
 * The mode's rule for where a payer is sent back (PRODUCT-RULES §4.1): https
 * to a named host; http only to this machine, and only in test mode. The rest
 * of the body's rules (types, lengths, the URL's shape, metadata limits) are
 * its class's, checked at the edge by the gateway, the only caller of
 * `sessions.create.v1`.
 */
export function checkReturnUrls(urls: { success_url: string; cancel_url: string }, livemode: boolean): void {
  const problems = RETURN_URL_FIELDS.filter((field) => !isAcceptedUrl(urls[field], livemode)).map(
    (field) => `${field} must be a fully qualified https URL${livemode ? '' : ' (http only for localhost in test mode)'}`,
  );
  if (problems.length > 0) throw new DomainError(ErrorCode.ValidationFailed, `Validation failed: ${problems.join('; ')}`);
}

function isAcceptedUrl(value: string, livemode: boolean): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (!url.hostname || url.username || url.password) return false;
  if (url.protocol === 'https:') return url.hostname.includes('.') || LOCAL_HOSTS.has(url.hostname);
  return url.protocol === 'http:' && !livemode && LOCAL_HOSTS.has(url.hostname);
}
