import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MerchantProvisioningService } from '../identity/merchant-provisioning.service';
import { AdminAuditModule } from './admin-audit.module';
import { AdminController } from './admin.controller';

@Module({
  imports: [AdminAuditModule],
  controllers: [AdminController],
  providers: [{ provide: MerchantProvisioningService, inject: [DataSource], useFactory: (dataSource: DataSource) => new MerchantProvisioningService(dataSource) }],
})
export class AdminModule {}
