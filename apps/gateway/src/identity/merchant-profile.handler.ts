import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DomainError, ErrorCode, MerchantProfileQuery, type MerchantProfileView } from '@pp/contracts';
import { Handles } from '@pp/platform';
import { DataSource } from 'typeorm';
import { MerchantRepository } from './merchant.repository';

/** What the payer-facing checkout pages show of a merchant (the gateway owns merchants). */
@Controller()
export class MerchantProfileHandler {
  private readonly merchants: MerchantRepository;

  constructor(dataSource: DataSource) {
    this.merchants = new MerchantRepository(dataSource);
  }

  @Handles('identity.merchant-profile.v1')
  async profile(@Payload() query: MerchantProfileQuery): Promise<MerchantProfileView> {
    const merchant = await this.merchants.find(query.merchant_id);
    if (!merchant) throw new DomainError(ErrorCode.NotFound, 'Merchant not found');
    return { name: merchant.name, etransfer_email: merchant.etransfer_email, frame_ancestors: merchant.frame_ancestors };
  }
}
