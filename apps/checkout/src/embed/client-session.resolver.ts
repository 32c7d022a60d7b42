import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, isPublishableKeyShaped, type PayerSessionView, sessionIdOfClientSecret } from '@pp/contracts';
import { callTimeoutMs, CONFIG, REQUEST_ID_HEADER, requestContext } from '@pp/platform';
import type { CheckoutConfig } from '../checkout.config';
import { PayerBudgetSpent } from '../http/payer-budgets';

/** Gateway answers the frame can pass on to the merchant's onError as they are. */
const PASSED_ON: Record<number, ErrorCode> = {
  401: ErrorCode.Unauthorized,
  403: ErrorCode.Forbidden,
  404: ErrorCode.NotFound,
};

/** The gateway's answer is awaited this long at most, less when the request it serves must be answered sooner. */
const GATEWAY_TIMEOUT_MS = 5000;
const INVALID_PUBLISHABLE_KEY = 'Invalid publishable key';
const NO_SUCH_SESSION = 'Invalid client secret: no such checkout session';

/**
 * Opens a session by client secret through the gateway's publishable-key
 * route, which authenticates the key, applies its rate limit and checks that
 * the key's merchant and mode are the session's.
 */
@Injectable()
export class ClientSessionResolver {
  private readonly url: string;

  constructor(@Inject(CONFIG) config: CheckoutConfig) {
    this.url = `${config.GATEWAY_URL.replace(/\/+$/, '')}/v1/client/checkout_session`;
  }

  /**
   * `payerAddress` is forwarded as X-Forwarded-For: the gateway budgets these
   * requests per client address and trusts this app as a proxy
   * (TRUSTED_PROXIES), so one payer's junk cannot throttle the others.
   */
  async resolve(publishableKey: string, clientSecret: string, payerAddress: string): Promise<PayerSessionView> {
    // Refused without asking the gateway: a key not of the exact shape the gateway mints publishable keys in (which
    // may not even be sendable as a header: a line break, a character past Latin-1) as the gateway refuses an unknown
    // key, then a secret of no secret's shape as no such session (for a well-formed key the gateway has never issued
    // too: a 404 where the gateway, asked, would have answered 401).
    if (!isPublishableKeyShaped(publishableKey)) throw new DomainError(ErrorCode.Unauthorized, INVALID_PUBLISHABLE_KEY);
    if (sessionIdOfClientSecret(clientSecret) === null) throw new DomainError(ErrorCode.NotFound, NO_SUCH_SESSION);
    // As the bus client does (libs/platform nats/bus-client.ts): the payer's request id goes along, so the gateway's
    // logs and answer carry the same id as ours, and the call ends by the request's deadline when it has one.
    const ctx = requestContext.current();
    const timeoutMs = callTimeoutMs(GATEWAY_TIMEOUT_MS);
    // These 503s' words are for the log (PayerErrorFilter): the payer is told the checkout is unavailable, with the request id.
    if (timeoutMs <= 0) throw new DomainError(ErrorCode.ServiceUnavailable, 'Gateway not asked: the request is past its deadline');
    let response: Response;
    try {
      response = await fetch(this.url, {
        headers: {
          authorization: `Bearer ${publishableKey}`,
          'x-client-secret': clientSecret,
          'x-forwarded-for': payerAddress,
          accept: 'application/json',
          ...(ctx ? { [REQUEST_ID_HEADER]: ctx.requestId } : {}),
        },
        signal: AbortSignal.timeout(timeoutMs),
        // fetch sends custom headers on across origins (only Authorization and cookies are dropped): a redirect from
        // a misrouted GATEWAY_URL would hand the payer's client secret to whatever it names.
        redirect: 'error',
      });
    } catch (error) {
      throw new DomainError(ErrorCode.ServiceUnavailable, `Gateway unreachable: ${whyUnreachable(error)}`);
    }
    const body = (await response.json().catch(() => null)) as (PayerSessionView & { error?: string }) | null;
    if (response.ok && body) return body;
    // The gateway's budget for this payer's address or this session: a 429 with its wait, not a refusal of the key.
    if (response.status === 429) throw new PayerBudgetSpent(retryAfterSeconds(response.headers.get('retry-after')));
    const code = PASSED_ON[response.status];
    if (!code) throw new DomainError(ErrorCode.ServiceUnavailable, `Gateway answered ${response.status}`);
    throw new DomainError(code, messageFor(response.status, body?.error));
  }
}

function messageFor(status: number, gatewayMessage: string | undefined): string {
  switch (status) {
    case 401:
      return INVALID_PUBLISHABLE_KEY;
    case 404:
      return NO_SUCH_SESSION;
    default:
      return gatewayMessage ?? 'Forbidden';
  }
}

/** The gateway's Retry-After in whole seconds (1 to 60; 1 when it is missing or not a number). */
function retryAfterSeconds(header: string | null): number {
  const seconds = Number(header);
  return Number.isFinite(seconds) ? Math.min(60, Math.max(1, Math.ceil(seconds))) : 1;
}

/**
 * fetch's own words ('fetch failed') with the reason it keeps in `cause` (ECONNREFUSED, a name not found, an
 * unexpected redirect); a timeout's own words say it all. Read by shape, not `instanceof Error`: fetch's errors come
 * from Node's own realm, which a test runner's sandbox does not share.
 */
function whyUnreachable(error: unknown): string {
  const { message, cause } = (error ?? {}) as { message?: unknown; cause?: { code?: unknown; message?: unknown } };
  if (typeof message !== 'string') return String(error);
  const reason = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : undefined;
  return reason ? `${message} (${reason})` : message;
}
