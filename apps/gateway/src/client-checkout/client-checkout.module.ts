import { Module } from '@nestjs/common';
import { MerchantProfileHandler } from '../identity/merchant-profile.handler';
import { ClientCheckoutController } from './client-checkout.controller';

/** What the checkout app asks of the gateway: sessions opened by client secret, and merchant profiles (over the bus). */
@Module({ controllers: [ClientCheckoutController, MerchantProfileHandler] })
export class ClientCheckoutModule {}
