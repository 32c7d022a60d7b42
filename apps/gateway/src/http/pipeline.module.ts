import { Global, Module } from '@nestjs/common';
import { CONFIG } from '@pp/platform';
import { AccessHook } from '../access/access.hook';
import type { GatewayConfig } from '../gateway.config';
import { IdempotencyHooks } from '../idempotency/idempotency.hooks';
import { IdempotencyKeys } from '../idempotency/idempotency.keys';
import { IdempotencyStore } from '../idempotency/idempotency.store';
import { ApiKeyUsage } from '../identity/api-key-usage';
import { ApiKeyAuthenticator } from '../identity/api-key.authenticator';
import { FailedAuthenticationBudget } from '../identity/failed-authentication.budget';
import { UnfoundKeyLookups } from '../identity/unfound-key-lookups';
import { ClientBudgets } from '../rate-limit/client-budgets';
import { KeyRateLimiter } from '../rate-limit/key-rate-limiter';
import { AnswerDeadline } from './answer-deadline.hook';

/** The stages of the request pipeline that need injected dependencies; configureHttp installs them as Fastify hooks. */
@Global()
@Module({
  providers: [
    ApiKeyAuthenticator,
    ApiKeyUsage,
    FailedAuthenticationBudget,
    UnfoundKeyLookups,
    KeyRateLimiter,
    ClientBudgets,
    AccessHook,
    { provide: IdempotencyKeys, inject: [CONFIG], useFactory: (config: GatewayConfig) => new IdempotencyKeys(config.SERVER_SECRET, config.PP_NAMESPACE) },
    IdempotencyStore,
    IdempotencyHooks,
    AnswerDeadline,
  ],
  // The authenticator also for the event stream, which asks again whether its key still holds while it stays open; the
  // idempotency keys also for bus commands whose creations record their Idempotency-Key (CreationRequests).
  exports: [AccessHook, ApiKeyAuthenticator, ClientBudgets, IdempotencyHooks, IdempotencyKeys],
})
export class PipelineModule {}
