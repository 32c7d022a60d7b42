import { Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { LivenessController, PodReadinessController, RedisModule } from '@pp/platform';
import { AdminEmailsController } from './admin/admin-emails.controller';
import { AdminMerchantsController } from './admin/admin-merchants.controller';
import { AdminPaymentsController } from './admin/admin-payments.controller';
import { AdminRefundsController } from './admin/admin-refunds.controller';
import { AccessGuard } from './auth/access.guard';
import { UserRequestBudget } from './http/user-request.budget';
import { AuthController } from './auth/auth.controller';
import { LoginLimiter } from './auth/login-limiter';
import { PrincipalRecheck } from './auth/principal-recheck';
import { SessionStore } from './auth/session.store';
import { WebAppController } from './http/web-app.controller';
import { AuditController } from './audit/audit.controller';
import { AuditTrail } from './audit/audit-trail';
import { AuditInterceptor } from './audit/audited.interceptor';
import { TeamAdditionsLimiter } from './team/team-additions.limiter';
import { TeamController } from './team/team.controller';
import { ApiKeyCreationsLimiter } from './merchant/api-key-creations.limiter';
import { DevelopersController } from './merchant/developers.controller';
import { MerchantController } from './merchant/merchant.controller';
import { AdminQuarantineController } from './admin/admin-quarantine.controller';
import { HomeController } from './merchant/home.controller';

/** The dashboard's backend for its front end: /api/* over the bus, and the web app itself (WebAppController last: it answers every other path). */
@Module({
  imports: [RedisModule.forService()],
  controllers: [
    LivenessController,
    PodReadinessController,
    AuthController,
    MerchantController,
    DevelopersController,
    HomeController,
    AdminRefundsController,
    AdminPaymentsController,
    AdminMerchantsController,
    AdminEmailsController,
    AdminQuarantineController,
    TeamController,
    AuditController,
    WebAppController,
  ],
  providers: [SessionStore, PrincipalRecheck, UserRequestBudget, LoginLimiter, TeamAdditionsLimiter, ApiKeyCreationsLimiter, AuditTrail, { provide: APP_GUARD, useClass: AccessGuard }, { provide: APP_INTERCEPTOR, useClass: AuditInterceptor }],
})
export class DashboardModule {}
