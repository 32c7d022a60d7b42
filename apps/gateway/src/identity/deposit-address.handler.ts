import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DomainError, ErrorCode, MerchantByDepositAddressQuery, type MerchantByDepositAddressReply } from '@pp/contracts';
import { Handles } from '@pp/platform';
import { DataSource } from 'typeorm';

/**
 * Live e-mail matching asks which merchant a transfer notice was sent to
 * (the gateway owns merchants). Exact, case-insensitive match on the
 * registered deposit address (unique across merchants, index
 * merchants_etransfer_email); the first address given that matches wins.
 */
@Controller()
export class DepositAddressHandler {
  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  @Handles('identity.merchant-by-deposit-address.v1')
  async merchantOf(@Payload() query: MerchantByDepositAddressQuery): Promise<MerchantByDepositAddressReply> {
    const addresses = query.addresses.map((address) => address.trim().toLowerCase());
    const rows: { id: string; address: string }[] = await this.db.query(
      `SELECT id, lower(etransfer_email) AS address FROM gateway.merchants WHERE lower(etransfer_email) = ANY($1::text[])`,
      [addresses],
    );
    const first = addresses.map((address) => rows.find((row) => row.address === address)).find(Boolean);
    if (!first) throw new DomainError(ErrorCode.NotFound, 'No merchant has this deposit address');
    return { merchant_id: first.id, address: first.address };
  }
}
