import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DashboardLoginHandler } from './dashboard-login.handler';
import { MerchantApiKeysHandler } from './merchant-api-keys.handler';
import { MerchantProvisioningService } from './merchant-provisioning.service';
import { MerchantsAdminHandler } from './merchants-admin.handler';

/** Identity questions and actions the dashboard sends over the bus (sign-in, a merchant's own keys, the platform admins' merchants). */
@Module({
  controllers: [DashboardLoginHandler, MerchantApiKeysHandler, MerchantsAdminHandler],
  providers: [{ provide: MerchantProvisioningService, inject: [DataSource], useFactory: (dataSource: DataSource) => new MerchantProvisioningService(dataSource) }],
})
export class DashboardIdentityModule {}
