import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { RECIPIENT_REASONS, type RecipientReason } from './payment.views';

/** A machine-readable reason: snake_case, optionally qualified (header_not_unique:from, header_not_signed:content-type). */
export const REVIEW_REASON_PATTERN = /^[a-z][a-z0-9_]{0,63}(:[a-z][a-z0-9_-]{0,31})?$/;

/** The most reasons one list of the evidence holds (the ingest clips what it sends to it). */
export const MAX_EVIDENCE_REASONS = 20;

/**
 * What the ingest established about one transfer e-mail, as facts: the
 * sessions service's transfer-match policy alone decides from them whether the
 * transfer may confirm (docs/INGEST-FORMATS.md, "Matching"). The ingest never
 * says "confirm" or "review"; a command without evidence is refused.
 */
export class TransferEvidence {
  /** A trusted, aligned DKIM signature proves Interac sent this content (authentication_reasons is empty then). */
  @IsBoolean({ message: 'evidence.authenticated must be a boolean' })
  authenticated!: boolean;

  /** Why it is not authenticated (dkim_missing, header_not_unique:from, …). */
  @IsArray({ message: 'evidence.authentication_reasons must be an array' })
  @ArrayMaxSize(MAX_EVIDENCE_REASONS, { message: `evidence.authentication_reasons must have at most ${MAX_EVIDENCE_REASONS} entries` })
  @Matches(REVIEW_REASON_PATTERN, { each: true, message: 'evidence.authentication_reasons must each be a snake_case word, optionally with a :qualifier' })
  authentication_reasons!: string[];

  /**
   * The one mailbox of the To header covered by the passing trusted signature
   * (DKIM covers the bottom-most To), lowercased; null when there is none.
   */
  @IsOptional()
  @IsString({ message: 'evidence.signed_recipient must be an address or null' })
  @Length(3, 320, { message: 'evidence.signed_recipient must be 3 to 320 characters' })
  signed_recipient!: string | null;

  /** Why the recipient is not one signed mailbox in one To header (recipient_not_unique, …); empty when it is. */
  @IsArray({ message: 'evidence.recipient_reasons must be an array' })
  @IsIn(RECIPIENT_REASONS, { each: true, message: `evidence.recipient_reasons must each be one of ${RECIPIENT_REASONS.join(', ')}` })
  recipient_reasons!: RecipientReason[];

  /**
   * The merchant's registered deposit address, lowercased: the address whose
   * lookup named merchant_id (the signed recipient, or any other header that routed the notice).
   */
  @IsString({ message: 'evidence.deposit_address must be an address' })
  @Length(3, 320, { message: 'evidence.deposit_address must be 3 to 320 characters' })
  deposit_address!: string;

  /** Why the parser did not read a complete deposit notice (memo_missing, amount_mismatch, …). */
  @IsArray({ message: 'evidence.parse_reasons must be an array' })
  @ArrayMaxSize(MAX_EVIDENCE_REASONS, { message: `evidence.parse_reasons must have at most ${MAX_EVIDENCE_REASONS} entries` })
  @Matches(REVIEW_REASON_PATTERN, { each: true, message: 'evidence.parse_reasons must each be a snake_case word, optionally with a :qualifier' })
  parse_reasons!: string[];
}
