import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { CHECKOUT_SESSION_ID_PATTERN, RefundText, SIMULATED_OUTCOMES, type SimulatedOutcome } from '@pp/contracts';

/** Body of POST /api/sandbox/simulate (docs/ARCHITECTURE.md "Dashboard"). */
export class DashboardSimulateBody {
  @IsString({ message: 'session_id must be a string' })
  @Length(1, 64, { message: 'session_id must be 1 to 64 characters' })
  @Matches(CHECKOUT_SESSION_ID_PATTERN, { message: 'session_id must be a checkout session id' })
  session_id!: string;

  @IsIn(SIMULATED_OUTCOMES, { message: `outcome must be one of ${SIMULATED_OUTCOMES.join(', ')}` })
  outcome!: SimulatedOutcome;
}

/** Body of POST /api/payments/:id/refund: the reason under the refund contract's text rules, as the merchant API's. */
export class DashboardRefundBody {
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() || undefined : value))
  @IsString({ message: 'reason must be a string' })
  @RefundText('reason')
  reason?: string;
}
