import { Global, Module } from '@nestjs/common';
import { AccessHook } from '../access/access.hook';
import { IdempotencyHooks } from '../idempotency/idempotency.hooks';
import { IdempotencyStore } from '../idempotency/idempotency.store';
import { ApiKeyUsage } from '../identity/api-key-usage';
import { ApiKeyAuthenticator } from '../identity/api-key.authenticator';
import { FailedAuthenticationBudget } from '../identity/failed-authentication.budget';
import { ClientBudgets } from '../rate-limit/client-budgets';
import { KeyRateLimiter } from '../rate-limit/key-rate-limiter';

/** The stages of the request pipeline that need injected dependencies; configureHttp installs them as Fastify hooks. */
@Global()
@Module({
  providers: [ApiKeyAuthenticator, ApiKeyUsage, FailedAuthenticationBudget, KeyRateLimiter, ClientBudgets, AccessHook, IdempotencyStore, IdempotencyHooks],
  // The authenticator also for the event stream, which asks again whether its key still holds while it stays open.
  exports: [AccessHook, ApiKeyAuthenticator, ClientBudgets, IdempotencyHooks],
})
export class PipelineModule {}
