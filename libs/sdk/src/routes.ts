/**
 * Every gateway route the SDK calls, in the OpenAPI document's notation. The
 * resources build their requests from this table, and
 * contract-drift.int.spec.ts checks it against the document the gateway
 * serves: a merchant route the SDK lacks, or one the gateway dropped, fails.
 */
export const ROUTES = {
  createCheckoutSession: { method: 'POST', path: '/v1/checkout/sessions' },
  retrieveCheckoutSession: { method: 'GET', path: '/v1/checkout/sessions/{id}' },
  listPayments: { method: 'GET', path: '/v1/payments' },
  listEvents: { method: 'GET', path: '/v1/events' },
  retrieveEvent: { method: 'GET', path: '/v1/events/{id}' },
  streamEvents: { method: 'GET', path: '/v1/events/stream' },
  resendEvent: { method: 'POST', path: '/v1/events/{id}/resend' },
  createRefund: { method: 'POST', path: '/v1/refunds' },
  listRefunds: { method: 'GET', path: '/v1/refunds' },
  retrieveRefund: { method: 'GET', path: '/v1/refunds/{id}' },
  cancelRefund: { method: 'POST', path: '/v1/refunds/{id}/cancel' },
  createWebhookEndpoint: { method: 'POST', path: '/v1/webhook_endpoints' },
  listWebhookEndpoints: { method: 'GET', path: '/v1/webhook_endpoints' },
  deleteWebhookEndpoint: { method: 'DELETE', path: '/v1/webhook_endpoints/{id}' },
  rotateWebhookEndpointSecret: { method: 'POST', path: '/v1/webhook_endpoints/{id}/rotate_secret' },
  disableWebhookEndpoint: { method: 'POST', path: '/v1/webhook_endpoints/{id}/disable' },
  enableWebhookEndpoint: { method: 'POST', path: '/v1/webhook_endpoints/{id}/enable' },
  simulatePayment: { method: 'POST', path: '/v1/sandbox/simulate-payment' },
  expireSession: { method: 'POST', path: '/v1/sandbox/expire-session' },
} as const satisfies Record<string, { method: 'GET' | 'POST' | 'DELETE'; path: string }>;

export type RouteName = keyof typeof ROUTES;

/**
 * The route's path with `{id}` filled in, escaped. encodeURIComponent leaves
 * `.` and `..` as they are, and the URL parser resolves them as path
 * segments (events.resend('..') would POST /v1/resend): so they are refused
 * here, before any request, like an empty id. The ids follow no pattern the
 * API documents (a checkout session's is a bare CUID2), so no more is checked.
 */
export function routePath(name: RouteName, id?: string): string {
  const template: string = ROUTES[name].path;
  if (!template.includes('{id}')) return template;
  if (typeof id !== 'string' || id === '' || id === '.' || id === '..') throw new TypeError(`${name} needs an id, not ${JSON.stringify(id) ?? 'none'}`);
  return template.replace('{id}', encodeURIComponent(id));
}
