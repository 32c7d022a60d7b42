import { Module } from '@nestjs/common';
import { AdminAuditModule } from '../admin/admin-audit.module';
import { AdminReviewController } from './admin-review.controller';

@Module({ imports: [AdminAuditModule], controllers: [AdminReviewController] })
export class AdminReviewModule {}
