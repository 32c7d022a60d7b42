export * from './webhook-endpoint.commands';
export * from './webhook-event.body';
export * from './webhook-signature';
export * from './webhook-url-origin';
export * from './webhook.views';
export * from './webhooks.subjects';
