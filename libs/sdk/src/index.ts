export { CheckoutClient, webhooks } from './client';
export * from './errors';
export { ListIterator } from './http/list';
export { DEFAULT_RETRY_SETTINGS, type RetrySettings } from './http/retry.policy';
export { type ApiResponse, type ClientOptions, DEFAULT_API_BASE, MAX_RESPONSE_BYTES, type RequestOptions } from './http/transport';
export { ROUTES, type RouteName } from './routes';
export * from './types';
export * from './webhooks';
export * from './events/follow-state';
