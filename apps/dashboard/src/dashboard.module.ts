import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { RedisModule } from '@pp/platform';
import { AdminMerchantsController } from './admin/admin-merchants.controller';
import { AdminPaymentsController } from './admin/admin-payments.controller';
import { AdminRefundsController } from './admin/admin-refunds.controller';
import { AccessGuard } from './auth/access.guard';
import { AuthController } from './auth/auth.controller';
import { LoginLimiter } from './auth/login-limiter';
import { SessionStore } from './auth/session.store';
import { WebAppController } from './http/web-app.controller';
import { DevelopersController } from './merchant/developers.controller';
import { MerchantController } from './merchant/merchant.controller';
// pages B
import { AdminQuarantineController } from './admin/admin-quarantine.controller';
import { HomeController } from './merchant/home.controller';

/** The dashboard's backend for its front end: /api/* over the bus, and the web app itself (WebAppController last: it answers every other path). */
@Module({
  imports: [RedisModule.forService()],
  controllers: [AuthController, MerchantController, DevelopersController, AdminRefundsController, AdminPaymentsController, AdminMerchantsController, /* pages B */ HomeController, AdminQuarantineController, WebAppController],
  providers: [SessionStore, LoginLimiter, { provide: APP_GUARD, useClass: AccessGuard }],
})
export class DashboardModule {}
