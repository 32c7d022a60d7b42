const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** What a state-changing request tells of the page that sent it. */
export interface SenderHeaders {
  origin?: string | string[];
  host?: string;
  secFetchSite?: string | string[];
}

/**
 * Whether the browser names this app (same host and port) as the page that sent the request. With the Secure cookie
 * (every deployment but dev and test) the page must also be https: a DNS-rebinding page reaches the dashboard's
 * address under the attacker's host name, and Origin and Host then agree; over https it cannot, since the dashboard's
 * certificate does not name the attacker's host, so the browser never sends the request. Loopback names stay allowed
 * over http, as browsers treat them as secure (a page is named localhost only when it is served there).
 */
export function fromOwnOrigin(sender: SenderHeaders, httpsOnly: boolean): boolean {
  if (sender.secFetchSite !== undefined && sender.secFetchSite !== 'same-origin') return false;
  if (typeof sender.origin !== 'string' || !sender.host) return false;
  let origin: URL;
  try {
    origin = new URL(sender.origin);
  } catch {
    return false;
  }
  if (httpsOnly && origin.protocol !== 'https:' && !LOOPBACK_NAMES.has(origin.hostname)) return false;
  return origin.host === sender.host;
}
