import { Transform } from 'class-transformer';
import { IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { REFUND_TEXT_MAX, SIMULATED_OUTCOMES, type SimulatedOutcome } from '@pp/contracts';

/** Body of POST /api/sandbox/simulate (docs/ARCHITECTURE.md "Dashboard"). */
export class DashboardSimulateBody {
  @IsString({ message: 'session_id must be a string' })
  @Length(1, 64, { message: 'session_id must be 1 to 64 characters' })
  session_id!: string;

  @IsIn(SIMULATED_OUTCOMES, { message: `outcome must be one of ${SIMULATED_OUTCOMES.join(', ')}` })
  outcome!: SimulatedOutcome;
}

/** Body of POST /api/payments/:id/refund. */
export class DashboardRefundBody {
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() || undefined : value))
  @IsString({ message: 'reason must be a string' })
  @MaxLength(REFUND_TEXT_MAX, { message: `reason must be at most ${REFUND_TEXT_MAX} characters` })
  reason?: string;
}
