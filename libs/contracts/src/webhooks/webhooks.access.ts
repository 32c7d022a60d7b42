import type { SubjectAccessMap } from '../bus-access/subject-access';
import type { WebhookSubjects } from './webhooks.subjects';

export const WEBHOOK_ACCESS: SubjectAccessMap<WebhookSubjects> = {
  'webhooks.endpoints.create.v1': { servedBy: 'webhooks', callers: ['gateway', 'dashboard'] },
  'webhooks.endpoints.list.v1': { servedBy: 'webhooks', callers: ['gateway', 'dashboard'] },
  'webhooks.endpoints.delete.v1': { servedBy: 'webhooks', callers: ['gateway', 'dashboard'] },
  'webhooks.endpoints.rotate-secret.v1': { servedBy: 'webhooks', callers: ['gateway', 'dashboard'] },
  'webhooks.endpoints.set-status.v1': { servedBy: 'webhooks', callers: ['gateway', 'dashboard'] },
  'webhooks.endpoints.deliveries.v1': { servedBy: 'webhooks', callers: ['dashboard'] },
  'webhooks.events.resend.v1': { servedBy: 'webhooks', callers: ['gateway', 'dashboard'] },
  'webhooks.deliveries.list.v1': { servedBy: 'webhooks', callers: ['gateway', 'dashboard'] },
};
