import { Module } from '@nestjs/common';
import { AdminRefundsController } from './admin-refunds.controller';
import { RefundsController } from './refunds.controller';

@Module({ controllers: [RefundsController, AdminRefundsController] })
export class RefundsModule {}
