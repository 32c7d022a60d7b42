import { IsIn, IsOptional, IsString, Length } from 'class-validator';
import { PlainText, Trimmed } from '../plain-text';

export const SIMULATED_OUTCOMES = ['confirmed', 'failed', 'requires_manual_review'] as const;
export type SimulatedOutcome = (typeof SIMULATED_OUTCOMES)[number];

/**
 * Body of POST /v1/sandbox/simulate-payment (PRODUCT-RULES §4.6): exactly one of
 * sessionId and reference (checked by the service, whose message names both).
 */
export class SimulatePaymentBody {
  @IsOptional()
  @IsString({ message: 'sessionId must be a string' })
  @Length(1, 64, { message: 'sessionId must be 1 to 64 characters' })
  sessionId?: string;

  /** Trimmed, as a session's reference is at creation, so the reference written as it was created finds it. */
  @IsOptional()
  @IsString({ message: 'reference must be a string' })
  @Trimmed()
  @Length(1, 255, { message: 'reference must be 1 to 255 characters' })
  @PlainText('reference')
  reference?: string;

  @IsIn(SIMULATED_OUTCOMES, { message: `outcome must be one of ${SIMULATED_OUTCOMES.join(', ')}` })
  outcome!: SimulatedOutcome;
}
