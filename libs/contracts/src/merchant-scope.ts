import { IsBoolean, IsString, Length } from 'class-validator';

/**
 * Who a command acts for: the merchant and the mode of the key that made the
 * request. Every merchant-facing command and query carries it, and every
 * service filters by both (a resource of another merchant or mode is "not found").
 */
export class MerchantScope {
  @IsString()
  @Length(1, 64)
  merchant_id!: string;

  @IsBoolean()
  livemode!: boolean;
}

/** One merchant and mode as a key (`mer_…:live`, `mer_…:test`): of an Idempotency-Key space, of a feed's listeners. */
export const merchantScopeKey = (scope: MerchantScope): string => `${scope.merchant_id}:${scope.livemode ? 'live' : 'test'}`;
