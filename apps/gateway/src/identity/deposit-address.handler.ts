import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { MerchantsByDepositAddressQuery, type MerchantsByDepositAddressReply } from '@pp/contracts';
import { Handles } from '@pp/platform';
import { DataSource } from 'typeorm';

/**
 * Live e-mail matching asks which merchants the notices it is matching were
 * sent to (the gateway owns merchants): one statement for all of them.
 * Exact, case-insensitive match on the registered deposit address (unique
 * across merchants, index merchants_etransfer_email); each notice picks its
 * own owner from the reply.
 */
@Controller()
export class DepositAddressHandler {
  constructor(@Inject(DataSource) private readonly db: DataSource) {}

  @Handles('identity.merchants-by-deposit-address.v1')
  async owners(@Payload() query: MerchantsByDepositAddressQuery): Promise<MerchantsByDepositAddressReply> {
    const addresses = [...new Set(query.addresses.map((address) => address.trim().toLowerCase()))];
    const rows: { id: string; address: string }[] = await this.db.query(
      `SELECT id, lower(etransfer_email) AS address FROM gateway.merchants WHERE lower(etransfer_email) = ANY($1::text[])`,
      [addresses],
    );
    return { owners: rows.map((row) => ({ address: row.address, merchant_id: row.id })) };
  }
}
