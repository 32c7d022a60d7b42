import { Module } from '@nestjs/common';
import { DepositAddressHandler } from '../identity/deposit-address.handler';
import { MerchantProfileHandler } from '../identity/merchant-profile.handler';
import { ClientCheckoutController } from './client-checkout.controller';

/** What the checkout app asks of the gateway: sessions opened by client secret, and merchant profiles (over the bus). */
@Module({ controllers: [ClientCheckoutController, MerchantProfileHandler, DepositAddressHandler] })
export class ClientCheckoutModule {}
