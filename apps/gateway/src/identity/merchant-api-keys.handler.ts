import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  CreateApiKeyCommand,
  DomainError,
  ErrorCode,
  type IssuedMerchantApiKeyView,
  ListApiKeysQuery,
  type MerchantApiKeyView,
  merchantScopeKey,
  RevokeApiKeyCommand,
} from '@pp/contracts';
import { Handles } from '@pp/platform';
import { DataSource } from 'typeorm';
import { CommandCreationRequests } from '../idempotency/creation-requests';
import { ApiKeyRepository } from './api-key.repository';
import { apiKeyView } from './identity.views';
import { MerchantProvisioningService } from './merchant-provisioning.service';
import { isScope, SCOPES } from './scopes';

const keyNotFound = () => new DomainError(ErrorCode.NotFound, 'API key not found');

/**
 * A merchant's own keys, for the dashboard's Developers page: the same rules
 * as the admin routes (provisioning service), scoped to the merchant and mode.
 */
@Controller()
export class MerchantApiKeysHandler {
  private readonly keys: ApiKeyRepository;

  constructor(
    @Inject(DataSource) dataSource: DataSource,
    private readonly provisioning: MerchantProvisioningService,
    private readonly creations: CommandCreationRequests,
  ) {
    this.keys = new ApiKeyRepository(dataSource);
  }

  @Handles('identity.api-keys.list.v1')
  async list(@Payload() query: ListApiKeysQuery): Promise<{ keys: MerchantApiKeyView[] }> {
    return { keys: (await this.keys.listShown(query.merchant_id, query.livemode)).map(apiKeyView) };
  }

  /** The dashboard's Idempotency-Key is scoped as an API key's would be, to the merchant and mode; the dashboard keeps its keys apart in it. */
  @Handles('identity.api-keys.create.v1')
  create(@Payload() command: CreateApiKeyCommand): Promise<IssuedMerchantApiKeyView> {
    const scopes = command.scopes?.map((scope) => {
      if (!isScope(scope)) throw new DomainError(ErrorCode.ValidationFailed, `Validation failed: scopes must each be one of ${SCOPES.join(', ')}`);
      return scope;
    });
    const expiresAt = command.expires_at === undefined ? undefined : new Date(command.expires_at);
    if (expiresAt && expiresAt.getTime() <= Date.now()) throw new DomainError(ErrorCode.ValidationFailed, 'Validation failed: expires_at must be in the future');
    const request = this.creations.of(merchantScopeKey(command), 'identity.api-keys.create.v1', command.idempotency);
    return this.provisioning.issueKey(command.merchant_id, { type: command.type, livemode: command.livemode, scopes, expires_at: expiresAt }, request);
  }

  @Handles('identity.api-keys.revoke.v1')
  async revoke(@Payload() command: RevokeApiKeyCommand): Promise<MerchantApiKeyView> {
    if (!(await this.keys.findOwned(command.key_id, command.merchant_id, command.livemode))) throw keyNotFound();
    return this.provisioning.revokeKey(command.key_id);
  }
}
