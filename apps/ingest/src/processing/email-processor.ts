import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Batcher, JsonLogger, requestContext } from '@pp/platform';
import type { AuthenticationResult } from '../authentication/authentication.types';
import { NoticeAuthentication } from '../authentication/notice-authentication';
import { DkimKeyUnavailableError } from '../authentication/notice-authenticator';
import { EmailRepository, type StoredEmail } from '../intake/email.repository';
import { headerRecipients } from '../parsing/header-recipients';
import { NoticeReader } from '../parsing/notice-reader';
import { behindTheAnswer } from './behind-the-answer';
import { IngestMetrics } from './ingest.metrics';
import { NOTICE_HANDLER, type NoticeHandler } from './notice-handler';
import { OutcomeRepository, type RecordedOutcome, type Verdict } from './outcome.repository';
import { NO_SIGNED_RECIPIENT, type ProcessedEmail } from './processed-email';
import { TrailingHandOffs } from './trailing-hand-offs';

/** How long a DNS failure is retried before the notice is recorded as unauthenticated (and reviewed by a person). */
const KEY_LOOKUP_RETRY_MS = 24 * 60 * 60 * 1000;

/**
 * Hand-offs that may go on behind answered submissions: enough for waves of
 * posted notices to overlap their predecessors' payments (256 was no faster
 * in the bench: 336, 341 msg/s against 317, 349), few enough to bound the memory.
 */
const TRAILING_HAND_OFFS = 128;

/** One e-mail's part of a judged batch: its recorded outcome and verdict, nothing (retry later, or already recorded), or its own failure. */
type Judgement = { recorded: { outcome: RecordedOutcome; verdict: Verdict } | null } | { error: unknown };

/**
 * The pipeline after storage: authenticate, parse, record the outcome, hand
 * the notice to the NoticeHandler. Safe to run twice for one e-mail (inline
 * and from the sweeper): the outcome is recorded once and only that run hands off.
 *
 * E-mails that reach it together (a burst from JetStream, concurrent
 * submissions) are judged together: authenticated and read by the workers
 * side by side, their outcomes recorded in one statement, their hand-offs
 * started in the same turn (so their merchant lookups share a request and
 * their hand-off records a statement). Each hand-off then runs on its own:
 * a slow one holds back no other e-mail.
 */
@Injectable()
export class EmailProcessor implements OnModuleDestroy {
  /**
   * Overlapping: a batch waits for its slowest verdict (a message that runs
   * to the authentication deadline holds its burst's outcomes that long,
   * the price of one statement per burst), but never the next batch.
   */
  private readonly judging = new Batcher<StoredEmail, Judgement>((emails) => this.judgeAll(emails), { overlapping: true });
  private readonly trailing = new TrailingHandOffs(TRAILING_HAND_OFFS);

  constructor(
    private readonly emails: EmailRepository,
    private readonly outcomes: OutcomeRepository,
    private readonly authentication: NoticeAuthentication,
    @Inject(NOTICE_HANDLER) private readonly handler: NoticeHandler,
    private readonly logger: JsonLogger,
    private readonly reader: NoticeReader,
    private readonly metrics: IngestMetrics,
  ) {
    metrics.watchTrailingHandOffs(() => this.trailing.size);
  }

  /**
   * Processes one stored e-mail (its id, or the e-mail itself when the caller
   * has just stored it); null when it is unknown, already processed, or must
   * be retried later.
   */
  async process(emailOrId: string | StoredEmail): Promise<RecordedOutcome | null> {
    const judged = await this.judge(emailOrId);
    if (judged?.handOff) await this.handOff(judged.handOff);
    return judged?.outcome ?? null;
  }

  /** Like process, but a failure is logged instead of thrown: the e-mail is stored, and the sweeper retries it. */
  async processSafely(emailOrId: string | StoredEmail): Promise<RecordedOutcome | null> {
    try {
      return await this.process(emailOrId);
    } catch (error) {
      this.logProcessingFailure(typeof emailOrId === 'string' ? emailOrId : emailOrId.id, error);
      return null;
    }
  }

  /**
   * Like processSafely, for a sender that waits for its answer: the answer
   * comes once the outcome is recorded (accepted, or a duplicate), and the
   * hand-off goes on behind it (TrailingHandOffs bounds how many), free of
   * the answered request's deadline (behind-the-answer.ts). Without
   * this, posted notices went through one wave at a time, each wave's
   * senders waiting for its payments before sending the next.
   */
  async processAnsweringAtOutcome(email: StoredEmail): Promise<RecordedOutcome | null> {
    let judged;
    try {
      judged = await this.judge(email);
    } catch (error) {
      this.logProcessingFailure(email.id, error);
      return null;
    }
    const handOff = judged?.handOff;
    // Over the limit the answer waits for the hand-off, but never past the sender's deadline, which the hand-off no
    // longer shares: a late answer would be a 503 and a resend, answered as a duplicate.
    const answerDeadline = requestContext.current()?.deadline;
    if (handOff) await this.trailing.add(behindTheAnswer(() => this.handOffSafely(handOff)), answerDeadline === undefined ? Infinity : answerDeadline - Date.now());
    return judged?.outcome ?? null;
  }

  /** Waits for the hand-offs still going on behind their answers. */
  async onModuleDestroy(): Promise<void> {
    await this.trailing.drain();
  }

  private async handOff(email: ProcessedEmail): Promise<void> {
    const result = await this.handler.handle(email);
    await this.outcomes.recordHandoff(email.email_id, result);
    this.metrics.handedOff(result);
  }

  /** A hand-off whose failure is logged, not thrown: the sweeper repeats it. */
  async handOffSafely(email: ProcessedEmail): Promise<void> {
    try {
      await this.handOff(email);
    } catch (error) {
      this.logProcessingFailure(email.email_id, error);
    }
  }

  /** The outcome recorded, and what to hand off (nothing for a duplicate); null as for process. */
  private async judge(emailOrId: string | StoredEmail): Promise<{ outcome: RecordedOutcome; handOff: ProcessedEmail | null } | null> {
    const email = typeof emailOrId === 'string' ? await this.emails.load(emailOrId) : emailOrId;
    if (!email) return null;
    const judgement = await this.judging.add(email);
    if ('error' in judgement) throw judgement.error;
    if (!judgement.recorded) return null;
    const { outcome, verdict } = judgement.recorded;
    this.metrics.authenticated(verdict.authentication);
    if (outcome.status !== 'duplicate') return { outcome, handOff: { ...verdict, status: outcome.status } };
    this.metrics.duplicate();
    return { outcome, handOff: null };
  }

  private logProcessingFailure(emailId: string, error: unknown): void {
    this.logger.error(`processing e-mail ${emailId} failed; it will be retried`, error instanceof Error ? error : undefined);
  }

  /** Verdicts for a batch (each e-mail's failure its own), then one statement for their outcomes. */
  private async judgeAll(emails: StoredEmail[]): Promise<Judgement[]> {
    const runs = await Promise.all(emails.map((email) => this.verdictOf(email).then((verdict) => ({ verdict }), (error: unknown) => ({ error }))));
    const judged = runs.flatMap((run) => ('verdict' in run && run.verdict ? [run.verdict] : []));
    const outcomes = judged.length > 0 ? await this.outcomes.recordAll(judged) : [];
    let next = 0;
    return runs.map((run) => {
      if ('error' in run) return { error: run.error };
      if (!run.verdict) return { recorded: null };
      const outcome = outcomes[next++];
      return { recorded: outcome ? { outcome, verdict: run.verdict } : null };
    });
  }

  /**
   * Authentication and reading, both off the event loop and under a deadline:
   * a message that overruns one is recorded (auth_timeout, parse_timeout),
   * never retried. Null when the DKIM key could not be fetched yet. A message
   * the MIME parser read nothing of is still routed by the To and
   * Delivered-To of its header section (unsigned: review at most).
   */
  private async verdictOf(email: StoredEmail): Promise<Verdict | null> {
    const authentication = await this.authenticate(email.id, email.raw, email.received_at);
    if (!authentication) return null;
    const { facts, parse } = await this.reader.read(email.id, email.raw);
    return {
      email_id: email.id,
      received_at: email.received_at.toISOString(),
      authentication,
      parse,
      recipients: facts ? { to: facts.to, delivered_to: facts.deliveredTo } : headerRecipients(email.raw),
    };
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
