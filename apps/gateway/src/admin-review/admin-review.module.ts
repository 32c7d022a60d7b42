import { Module } from '@nestjs/common';
import { AdminReviewController } from './admin-review.controller';

@Module({ controllers: [AdminReviewController] })
export class AdminReviewModule {}
