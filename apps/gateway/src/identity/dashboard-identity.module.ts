import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuditHandler } from '../audit/audit.handler';
import { CreationRequestsModule } from '../idempotency/creation-requests.module';
import { TeamHandler } from '../team/team.handler';
import { DashboardLoginHandler } from './dashboard-login.handler';
import { DashboardPrincipalHandler } from './dashboard-principal.handler';
import { MerchantApiKeysHandler } from './merchant-api-keys.handler';
import { MerchantProvisioningService } from './merchant-provisioning.service';
import { MerchantsAdminHandler } from './merchants-admin.handler';

/** Identity questions and actions the dashboard sends over the bus (sign-in and who a signed-in user is now, a merchant's own keys and team, the platform admins' merchants, the audit trail). */
@Module({
  imports: [CreationRequestsModule],
  controllers: [DashboardLoginHandler, DashboardPrincipalHandler, MerchantApiKeysHandler, MerchantsAdminHandler, TeamHandler, AuditHandler],
  providers: [{ provide: MerchantProvisioningService, inject: [DataSource], useFactory: (dataSource: DataSource) => new MerchantProvisioningService(dataSource) }],
})
export class DashboardIdentityModule {}
