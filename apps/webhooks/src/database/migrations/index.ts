import { WebhooksTables1767400000000 } from './1767400000000-webhooks-tables.migration';
import { SealedEndpointSecrets1767500000000 } from './1767500000000-sealed-endpoint-secrets.migration';

/** Every migration of the webhooks schema, oldest first. */
export const WebhooksMigrations: Function[] = [WebhooksTables1767400000000, SealedEndpointSecrets1767500000000];
