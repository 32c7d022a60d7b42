import { Inject, Injectable } from '@nestjs/common';
import { JsonLogger } from '@pp/platform';
import type { AuthenticationResult } from '../authentication/authentication.types';
import { NoticeAuthentication } from '../authentication/notice-authentication';
import { DkimKeyUnavailableError } from '../authentication/notice-authenticator';
import { EmailRepository, type StoredEmail } from '../intake/email.repository';
import { NoticeReader } from '../parsing/notice-reader';
import { IngestMetrics } from './ingest.metrics';
import { NOTICE_HANDLER, type NoticeHandler } from './notice-handler';
import { OutcomeRepository, type RecordedOutcome } from './outcome.repository';
import { NO_SIGNED_RECIPIENT, type ProcessedEmail } from './processed-email';

/** How long a DNS failure is retried before the notice is recorded as unauthenticated (and reviewed by a person). */
const KEY_LOOKUP_RETRY_MS = 24 * 60 * 60 * 1000;

/**
 * The pipeline after storage: authenticate, parse, record the outcome, hand
 * the notice to the NoticeHandler. Safe to run twice for one e-mail (inline
 * and from the sweeper): the outcome is recorded once and only that run hands off.
 */
@Injectable()
export class EmailProcessor {
  constructor(
    private readonly emails: EmailRepository,
    private readonly outcomes: OutcomeRepository,
    private readonly authentication: NoticeAuthentication,
    @Inject(NOTICE_HANDLER) private readonly handler: NoticeHandler,
    private readonly logger: JsonLogger,
    private readonly reader: NoticeReader,
    private readonly metrics: IngestMetrics,
  ) {}

  /**
   * Processes one stored e-mail (its id, or the e-mail itself when the caller
   * has just stored it); null when it is unknown, already processed, or must
   * be retried later.
   */
  async process(emailOrId: string | StoredEmail): Promise<RecordedOutcome | null> {
    const email = typeof emailOrId === 'string' ? await this.emails.load(emailOrId) : emailOrId;
    if (!email) return null;
    // Both off the event loop and under a deadline: a message that overruns one is recorded (auth_timeout,
    // parse_timeout), never retried.
    const authentication = await this.authenticate(email.id, email.raw, email.received_at);
    if (!authentication) return null;
    const { facts, parse } = await this.reader.read(email.id, email.raw);
    const verdict = {
      email_id: email.id,
      received_at: email.received_at.toISOString(),
      authentication,
      parse,
      recipients: { to: facts?.to ?? [], delivered_to: facts?.deliveredTo ?? [] },
    };
    const outcome = await this.outcomes.record(verdict);
    if (outcome) this.metrics.authenticated(authentication);
    if (outcome?.status === 'duplicate') this.metrics.duplicate();
    else if (outcome) await this.handOff({ ...verdict, status: outcome.status });
    return outcome;
  }

  /** Like process, but a failure is logged instead of thrown: the e-mail is stored, and the sweeper retries it. */
  async processSafely(emailOrId: string | StoredEmail): Promise<RecordedOutcome | null> {
    try {
      return await this.process(emailOrId);
    } catch (error) {
      const emailId = typeof emailOrId === 'string' ? emailOrId : emailOrId.id;
      this.logger.error(`processing e-mail ${emailId} failed; it will be retried`, error instanceof Error ? error : undefined);
      return null;
    }
  }

  async handOff(email: ProcessedEmail): Promise<void> {
    const result = await this.handler.handle(email);
    await this.outcomes.recordHandoff(email.email_id, result);
    this.metrics.handedOff(result);
  }

  private async authenticate(emailId: string, raw: Buffer, receivedAt: Date): Promise<AuthenticationResult | null> {
    try {
      return await this.authentication.authenticate(emailId, raw);
    } catch (error) {
      if (!(error instanceof DkimKeyUnavailableError)) throw error;
      if (Date.now() - receivedAt.getTime() < KEY_LOOKUP_RETRY_MS) {
        this.logger.warn(`${error.message}; will retry`);
        return null;
      }
      return { authenticated: false, reasons: ['dkim_key_unavailable'], from: null, recipient: NO_SIGNED_RECIPIENT };
    }
  }
}
