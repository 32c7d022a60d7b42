import { DomainError, ErrorCode } from '@pp/contracts';
import { isUniqueViolation, violatedUniqueConstraint } from '@pp/platform';
import { newId } from '@pp/kernel';
import type { DataSource, EntityManager } from 'typeorm';
import type { CreationRequest } from '../idempotency/creation-request.repository';
import { inRecordedTransaction, refuseRepeatedCreation } from '../idempotency/creation-requests';
import { isEmailTakenByOtherKind, lockAccountEmails } from './account-emails';
import { generateApiKey, hashApiKey, type KeyType, redactKey } from './api-key';
import { ApiKeyRepository } from './api-key.repository';
import { DashboardUserRepository } from './dashboard-user.repository';
import {
  apiKeyView,
  type ApiKeyView,
  type IssuedApiKeyView,
  merchantView,
  type MerchantView,
  type MerchantWithKeysView,
  type ProvisionedMerchantView,
} from './identity.views';
import { type MerchantChanges, MerchantRepository } from './merchant.repository';
import { chosenOrGeneratedPassword, generatePassword, hashPassword } from './password';
import type { Queryable } from './queryable';
import { SECRET_KEY_SCOPES, type Scope } from './scopes';

export const DEPOSIT_ADDRESS_TAKEN = 'etransfer_email is already the deposit address of another merchant';
export const PLATFORM_ADMIN_EMAIL_TAKEN = 'A platform admin with this email already exists';

/** Active (neither revoked nor expired) API keys a merchant may hold in one mode. */
export const MAX_ACTIVE_KEYS_PER_MODE = 25;

/** Live e-mail matching finds a merchant by its deposit address, so one address names one merchant (index merchants_etransfer_email). */
const isDepositAddressTaken = (error: unknown): boolean => violatedUniqueConstraint(error) === 'merchants_etransfer_email';

export interface NewMerchant {
  name: string;
  email: string;
  password?: string;
  etransfer_email?: string;
}

export interface KeySpec {
  type: KeyType;
  livemode: boolean;
  scopes?: Scope[];
  expires_at?: Date;
  rate_limit_per_second?: number;
}

/**
 * The platform operator's use cases on identity: create a merchant with its
 * owner and default keys, issue and revoke keys, change merchant settings.
 * Used by the admin routes and by the CLI, so it takes a plain DataSource.
 * A creation that comes with its request's Idempotency-Key (the admin routes,
 * the dashboard's commands) records it in its transaction and refuses a
 * repeat (creation-requests.ts): its secrets were shown once, in an answer
 * that may have been lost, and must not be minted a second time.
 */
export class MerchantProvisioningService {
  constructor(private readonly dataSource: DataSource) {}

  async createMerchant(input: NewMerchant, request?: CreationRequest): Promise<ProvisionedMerchantView> {
    await refuseRepeatedCreation(this.dataSource, request);
    const { hash: passwordHash, shown } = await chosenOrGeneratedPassword(input.password);
    try {
      return await inRecordedTransaction(
        this.dataSource,
        request,
        'merchant',
        async (tx) => {
          await lockAccountEmails(tx);
          if (await isEmailTakenByOtherKind(tx, 'dashboard_user', input.email)) throw new DomainError(ErrorCode.Conflict, PLATFORM_ADMIN_EMAIL_TAKEN);
          const merchant = await new MerchantRepository(tx).insert({
            id: newId('merchant'),
            name: input.name,
            email: input.email,
            etransfer_email: input.etransfer_email ?? null,
          });
          const user = await new DashboardUserRepository(tx).insert({
            id: newId('user'),
            merchant_id: merchant.id,
            email: input.email,
            password_hash: passwordHash,
            role: 'owner',
          });
          return {
            merchant_id: merchant.id,
            keys: await issueDefaultKeys(tx, merchant.id),
            dashboard_user: { id: user.id, email: user.email, role: user.role, ...shown },
          };
        },
        (made) => made.merchant_id,
      );
    } catch (error) {
      if (isDepositAddressTaken(error)) throw new DomainError(ErrorCode.Conflict, DEPOSIT_ADDRESS_TAKEN);
      if (isUniqueViolation(error)) throw new DomainError(ErrorCode.Conflict, 'A dashboard user with this email already exists');
      throw error;
    }
  }

  /**
   * Four fresh default keys and a new owner password for an existing merchant
   * (demo seeding when the keys were lost: they are stored only as hashes).
   */
  async reissueDefaults(merchantId: string, ownerEmail: string): Promise<ProvisionedMerchantView> {
    const password = generatePassword();
    const passwordHash = await hashPassword(password);
    return this.dataSource.transaction(async (tx) => {
      const users = new DashboardUserRepository(tx);
      const owner = await users.findByEmail(ownerEmail);
      if (!owner || owner.merchant_id !== merchantId) throw new DomainError(ErrorCode.NotFound, 'Dashboard user not found');
      await users.setPassword(owner.id, passwordHash);
      return {
        merchant_id: merchantId,
        keys: await issueDefaultKeys(tx, merchantId),
        dashboard_user: { id: owner.id, email: owner.email, role: owner.role, password },
      };
    });
  }

  /**
   * Each key has its own rate limit, so keys are capped per merchant and mode (MAX_ACTIVE_KEYS_PER_MODE): minting
   * keys must not multiply a merchant's share of the platform. The merchant's row is locked, so two issues at once
   * are counted one after the other.
   */
  async issueKey(merchantId: string, spec: KeySpec, request?: CreationRequest): Promise<IssuedApiKeyView> {
    const scopes = scopesFor(spec);
    await refuseRepeatedCreation(this.dataSource, request);
    return inRecordedTransaction(
      this.dataSource,
      request,
      'api_key',
      async (tx) => {
        if (!(await new MerchantRepository(tx).lock(merchantId))) throw new DomainError(ErrorCode.NotFound, 'Merchant not found');
        if ((await new ApiKeyRepository(tx).countActive(merchantId, spec.livemode)) >= MAX_ACTIVE_KEYS_PER_MODE) {
          throw new DomainError(ErrorCode.ValidationFailed, `Validation failed: at most ${MAX_ACTIVE_KEYS_PER_MODE} active API keys per mode; revoke one first`);
        }
        return issueKey(tx, merchantId, { ...spec, scopes });
      },
      (issued) => issued.id,
    );
  }

  async revokeKey(keyId: string): Promise<ApiKeyView> {
    const revoked = await new ApiKeyRepository(this.dataSource).revoke(keyId);
    if (!revoked) throw new DomainError(ErrorCode.NotFound, 'API key not found');
    return apiKeyView(revoked);
  }

  /** A merchant with its keys (redacted) and its dashboard users, oldest first: whom an operator may set a password for. */
  async getMerchant(merchantId: string): Promise<MerchantWithKeysView> {
    const merchant = await this.requireMerchant(merchantId);
    const [keys, users] = await Promise.all([new ApiKeyRepository(this.dataSource).listShown(merchantId), new DashboardUserRepository(this.dataSource).listForMerchant(merchantId)]);
    return { ...merchantView(merchant), keys: keys.map(apiKeyView), users: users.map(({ id, email, role }) => ({ id, email, role })) };
  }

  /**
   * Changes a merchant and answers it as it was and as it is, both read under the row's lock: the audit trail names
   * the deposit address being replaced, which a concurrent change could otherwise have replaced already.
   */
  async updateMerchant(merchantId: string, changes: MerchantChanges): Promise<{ before: MerchantView; after: MerchantView }> {
    return this.dataSource
      .transaction(async (tx) => {
        const merchants = new MerchantRepository(tx);
        const before = await merchants.lock(merchantId);
        const after = before && (await merchants.update(merchantId, changes));
        if (!before || !after) throw new DomainError(ErrorCode.NotFound, 'Merchant not found');
        return { before: merchantView(before), after: merchantView(after) };
      })
      .catch((error: unknown) => {
        throw isDepositAddressTaken(error) ? new DomainError(ErrorCode.Conflict, DEPOSIT_ADDRESS_TAKEN) : error;
      });
  }

  private async requireMerchant(merchantId: string) {
    const merchant = await new MerchantRepository(this.dataSource).find(merchantId);
    if (!merchant) throw new DomainError(ErrorCode.NotFound, 'Merchant not found');
    return merchant;
  }
}

/** Which scopes a new key carries: every scope for secret keys, the chosen ones for restricted keys, none for publishable keys. */
function scopesFor(spec: KeySpec): Scope[] {
  switch (spec.type) {
    case 'secret':
      if (spec.scopes) throw new DomainError(ErrorCode.ValidationFailed, 'Validation failed: scopes apply only to restricted keys');
      return [...SECRET_KEY_SCOPES];
    case 'restricted':
      if (!spec.livemode) throw new DomainError(ErrorCode.ValidationFailed, 'Validation failed: livemode must be true for restricted keys');
      if (!spec.scopes?.length) throw new DomainError(ErrorCode.ValidationFailed, 'Validation failed: scopes must name at least one scope for a restricted key');
      return [...new Set(spec.scopes)];
    case 'publishable':
      if (spec.scopes) throw new DomainError(ErrorCode.ValidationFailed, 'Validation failed: scopes apply only to restricted keys');
      return [];
  }
}

async function issueKey(db: Queryable, merchantId: string, spec: KeySpec & { scopes: Scope[] }): Promise<IssuedApiKeyView> {
  const key = generateApiKey(spec);
  const record = await new ApiKeyRepository(db).insert({
    id: newId('key'),
    merchant_id: merchantId,
    type: spec.type,
    livemode: spec.livemode,
    key_hash: hashApiKey(key),
    redacted: redactKey(key),
    scopes: spec.scopes,
    rate_limit_per_second: spec.rate_limit_per_second ?? null,
    expires_at: spec.expires_at ?? null,
  });
  return { ...apiKeyView(record), key };
}

async function issueDefaultKeys(tx: EntityManager, merchantId: string): Promise<ProvisionedMerchantView['keys']> {
  const issue = async (type: KeyType, livemode: boolean) =>
    (await issueKey(tx, merchantId, { type, livemode, scopes: type === 'secret' ? [...SECRET_KEY_SCOPES] : [] })).key;
  return {
    live_secret: await issue('secret', true),
    test_secret: await issue('secret', false),
    live_publishable: await issue('publishable', true),
    test_publishable: await issue('publishable', false),
  };
}
