/** Every migration of the webhooks schema, oldest first. */
export const WebhooksMigrations: Function[] = [];
