import { Module } from '@nestjs/common';
import { CONFIG, DatabaseModule } from '@pp/platform';
import { dnsResolver, loadDnsOverrides, overridesResolver } from './authentication/dkim-resolver';
import type { AuthenticationPolicy } from './authentication/notice-authenticator';
import { IngestDatabase } from './database/ingest.database';
import type { IngestConfig } from './ingest.config';
import { EmailIntake } from './intake/email-intake.service';
import { EmailRepository } from './intake/email.repository';
import { RawEmailConsumer } from './intake/raw-email.consumer';
import { SubmitEmailController } from './intake/submit-email.controller';
import { MatchingNoticeHandler } from './matching/matching.notice-handler';
import { QuarantineHandler } from './matching/quarantine.handler';
import { QuarantineRepository } from './matching/quarantine.repository';
import { NoticeReader } from './parsing/notice-reader';
import { AUTHENTICATION_POLICY, EmailProcessor } from './processing/email-processor';
import { NOTICE_HANDLER } from './processing/notice-handler';
import { OutcomeRepository } from './processing/outcome.repository';
import { ProcessingSweeper } from './processing/processing-sweeper';

@Module({
  imports: [DatabaseModule.forService(IngestDatabase)],
  controllers: [SubmitEmailController, QuarantineHandler],
  providers: [
    EmailRepository,
    EmailIntake,
    OutcomeRepository,
    NoticeReader,
    EmailProcessor,
    RawEmailConsumer,
    ProcessingSweeper,
    {
      provide: AUTHENTICATION_POLICY,
      inject: [CONFIG],
      useFactory: (config: IngestConfig): AuthenticationPolicy => ({
        trustedDomains: config.INGEST_TRUSTED_DKIM_DOMAINS,
        resolver: config.INGEST_DNS_OVERRIDES ? overridesResolver(loadDnsOverrides(config.INGEST_DNS_OVERRIDES)) : dnsResolver(),
      }),
    },
    QuarantineRepository,
    MatchingNoticeHandler,
    { provide: NOTICE_HANDLER, useExisting: MatchingNoticeHandler },
  ],
})
export class IngestModule {}
