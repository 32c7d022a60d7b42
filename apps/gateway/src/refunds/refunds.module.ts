import { Module } from '@nestjs/common';
import { AdminAuditModule } from '../admin/admin-audit.module';
import { AdminRefundsController } from './admin-refunds.controller';
import { RefundsController } from './refunds.controller';

@Module({ imports: [AdminAuditModule], controllers: [RefundsController, AdminRefundsController] })
export class RefundsModule {}
