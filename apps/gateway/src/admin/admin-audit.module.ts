import { Module } from '@nestjs/common';
import { AdminAudit } from './admin-audit';

/** The one AdminAudit of every module with ADMIN_TOKEN routes (admin, admin review, admin refunds). */
@Module({ providers: [AdminAudit], exports: [AdminAudit] })
export class AdminAuditModule {}
