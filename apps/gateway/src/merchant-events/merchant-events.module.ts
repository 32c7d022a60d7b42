import { Module } from '@nestjs/common';
import { MerchantEventsController } from './merchant-events.controller';

@Module({ controllers: [MerchantEventsController] })
export class MerchantEventsModule {}
