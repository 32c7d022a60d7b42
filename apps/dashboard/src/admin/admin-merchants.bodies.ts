import { OmitType } from '@nestjs/mapped-types';
import { CreateMerchantCommand } from '@pp/contracts';

/** Body of POST /api/admin/merchants: the command's fields and rules, its Idempotency-Key coming from the header. */
export class CreateMerchantBody extends OmitType(CreateMerchantCommand, ['idempotency'] as const) {}
