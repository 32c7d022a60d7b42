import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { CreateMerchantCommand, ListMerchantsQuery, type MerchantAdminView, type MerchantUpdateReply, type ProvisionedMerchantReply, UpdateMerchantCommand } from '@pp/contracts';
import { Handles } from '@pp/platform';
import { DataSource } from 'typeorm';
import { CommandCreationRequests } from '../idempotency/creation-requests';
import { merchantView } from './identity.views';
import { MerchantRepository } from './merchant.repository';
import { MerchantProvisioningService } from './merchant-provisioning.service';

/** The key space of the platform admins' merchant console: the dashboard's Idempotency-Keys for new merchants. */
const CONSOLE_KEY_SPACE = 'dashboard';

/** The platform admins' merchant console in the dashboard: the same use cases as the admin routes. */
@Controller()
export class MerchantsAdminHandler {
  private readonly merchants: MerchantRepository;

  constructor(
    @Inject(DataSource) dataSource: DataSource,
    private readonly provisioning: MerchantProvisioningService,
    private readonly creations: CommandCreationRequests,
  ) {
    this.merchants = new MerchantRepository(dataSource);
  }

  @Handles('identity.merchants.list.v1')
  async list(@Payload() query: ListMerchantsQuery): Promise<{ data: MerchantAdminView[]; has_more: boolean }> {
    const limit = query.limit ?? 25;
    const rows = await this.merchants.list(query.search?.trim() || undefined, limit + 1, query.starting_after);
    return { data: rows.slice(0, limit).map(merchantView), has_more: rows.length > limit };
  }

  @Handles('identity.merchants.create.v1')
  create(@Payload() command: CreateMerchantCommand): Promise<ProvisionedMerchantReply> {
    const request = this.creations.of(CONSOLE_KEY_SPACE, 'identity.merchants.create.v1', command.idempotency);
    return this.provisioning.createMerchant({ name: command.name, email: command.email, etransfer_email: command.etransfer_email }, request);
  }

  /** With the merchant as it was, so the dashboard's audit entry names the deposit address being replaced, not only the new one. */
  @Handles('identity.merchants.update.v1')
  async update(@Payload() command: UpdateMerchantCommand): Promise<MerchantUpdateReply> {
    const { before, after } = await this.provisioning.updateMerchant(command.merchant_id, {
      name: command.name,
      etransfer_email: command.etransfer_email,
      frame_ancestors: command.frame_ancestors,
    });
    return { ...after, before };
  }
}
