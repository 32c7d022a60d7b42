import type { AuthenticationResult, SignedRecipient } from '../authentication/authentication.types';
import type { NoticeParseResult } from '../parsing/notice.types';

/**
 * - parsed: sent by Interac and a complete deposit notice
 * - rejected: sent by Interac, but not a deposit or not readable (reasons in `parse`)
 * - unauthenticated: not proven to come from Interac (reasons in `authentication`)
 * - duplicate: an authenticated notice whose reference number another e-mail already claimed
 */
export type OutcomeStatus = 'parsed' | 'rejected' | 'unauthenticated' | 'duplicate';

/** One processed e-mail, as recorded and as handed to the NoticeHandler. */
export interface ProcessedEmail {
  email_id: string;
  received_at: string;
  status: Exclude<OutcomeStatus, 'duplicate'>;
  authentication: AuthenticationResult;
  parse: NoticeParseResult;
  /** Where the mail was addressed; matching uses it to find the merchant. */
  recipients: { to: string[]; delivered_to: string[] };
}

/**
 * The recipient of a notice whose signature proves none (no key, or an
 * outcome recorded before the signed recipient was read): it may route the
 * notice to a merchant's review queue, never confirm it.
 */
export const NO_SIGNED_RECIPIENT: SignedRecipient = { signed_recipient: null, reasons: ['recipient_not_signed'] };

/** A stored authentication verdict, with NO_SIGNED_RECIPIENT when it predates the recipient rule. */
export const storedAuthentication = (stored: AuthenticationResult): AuthenticationResult => ({
  ...stored,
  recipient: (stored as Partial<AuthenticationResult>).recipient ?? NO_SIGNED_RECIPIENT,
});
