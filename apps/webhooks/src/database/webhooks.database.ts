import type { ServiceDatabase } from '@pp/platform';
import { WebhooksMigrations } from './migrations';
import { WebhooksGrants } from './webhooks.grants';

/** Endpoints, events and deliveries: schema, migrations and the webhooks role's grants. */
export const WebhooksDatabase: ServiceDatabase = { service: 'webhooks', schema: 'webhooks', migrations: WebhooksMigrations, grants: WebhooksGrants };
