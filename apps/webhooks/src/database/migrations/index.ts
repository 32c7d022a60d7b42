import { WebhooksTables1767400000000 } from './1767400000000-webhooks-tables.migration';
import { SealedEndpointSecrets1767500000000 } from './1767500000000-sealed-endpoint-secrets.migration';
import { AttemptsByEndpoint1767600000000 } from './1767600000000-attempts-by-endpoint.migration';
import { ResendRequested1767700000000 } from './1767700000000-resend-requested.migration';
import { EndpointRequests1767800000000 } from './1767800000000-endpoint-requests.migration';
import { EndpointRequestsByAge1767900000000 } from './1767900000000-endpoint-requests-by-age.migration';
import { EndpointLastFailure1768000000000 } from './1768000000000-endpoint-last-failure.migration';
import { EndpointScopes1768100000000 } from './1768100000000-endpoint-scopes.migration';
import { EndpointSecretVersion1768200000000 } from './1768200000000-endpoint-secret-version.migration';
import { DeliveriesNotAttemptedByEndpoint1768300000000 } from './1768300000000-deliveries-not-attempted-by-endpoint.migration';
import { ResendRequests1768400000000 } from './1768400000000-resend-requests.migration';
import { EventsByAge1768500000000 } from './1768500000000-events-by-age.migration';
import { EndpointsCaughtUp1768600000000 } from './1768600000000-endpoints-caught-up.migration';
import { EndpointCatchUpUntil1768700000000 } from './1768700000000-endpoint-catch-up-until.migration';

/** Every migration of the webhooks schema, oldest first. */
export const WebhooksMigrations: Function[] = [
  WebhooksTables1767400000000,
  SealedEndpointSecrets1767500000000,
  AttemptsByEndpoint1767600000000,
  ResendRequested1767700000000,
  EndpointRequests1767800000000,
  EndpointRequestsByAge1767900000000,
  EndpointLastFailure1768000000000,
  EndpointScopes1768100000000,
  EndpointSecretVersion1768200000000,
  DeliveriesNotAttemptedByEndpoint1768300000000,
  ResendRequests1768400000000,
  EventsByAge1768500000000,
  EndpointsCaughtUp1768600000000,
  EndpointCatchUpUntil1768700000000,
];
