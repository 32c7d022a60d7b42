import { Module } from '@nestjs/common';
import { CheckoutSessionsController } from './checkout-sessions.controller';

@Module({ controllers: [CheckoutSessionsController] })
export class CheckoutSessionsModule {}
