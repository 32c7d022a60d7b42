import { Module } from '@nestjs/common';
import { DatabaseModule } from '@pp/platform/typeorm';
import { NoticeAuthentication } from './authentication/notice-authentication';
import { IngestDatabase } from './database/ingest.database';
import { EmailIntake } from './intake/email-intake.service';
import { EmailRepository } from './intake/email.repository';
import { RawEmailBucket } from './intake/raw-email-bucket';
import { RawEmailConsumer } from './intake/raw-email.consumer';
import { SubmitEmailController } from './intake/submit-email.controller';
import { DepositAddressDirectory } from './matching/deposit-address-directory';
import { NoticeMatcher } from './matching/notice-matcher';
import { EmailEvidenceHandler } from './evidence/email-evidence.handler';
import { EmailEvidenceRepository } from './evidence/email-evidence.repository';
import { QuarantineHandler } from './matching/quarantine.handler';
import { QuarantineRepository } from './matching/quarantine.repository';
import { NoticeReader } from './parsing/notice-reader';
import { IngestMetrics } from './processing/ingest.metrics';
import { EmailProcessor } from './processing/email-processor';
import { NOTICE_HANDLER } from './processing/notice-handler';
import { OutcomeRepository } from './processing/outcome.repository';
import { ProcessingSweeper } from './processing/processing.sweeper';
import { SweepMarkRepository } from './processing/sweep-mark.repository';

@Module({
  imports: [DatabaseModule.forService(IngestDatabase)],
  controllers: [SubmitEmailController, QuarantineHandler, EmailEvidenceHandler],
  providers: [
    EmailRepository,
    EmailIntake,
    OutcomeRepository,
    NoticeAuthentication,
    NoticeReader,
    IngestMetrics,
    EmailProcessor,
    RawEmailBucket,
    RawEmailConsumer,
    ProcessingSweeper,
    SweepMarkRepository,
    QuarantineRepository,
    EmailEvidenceRepository,
    DepositAddressDirectory,
    NoticeMatcher,
    { provide: NOTICE_HANDLER, useExisting: NoticeMatcher },
  ],
})
export class IngestModule {}
