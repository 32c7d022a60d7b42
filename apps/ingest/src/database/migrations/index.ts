import { EmailEvidence1767300000000 } from './1767300000000-email-evidence.migration';
import { Quarantine1767400000000 } from './1767400000000-quarantine.migration';
import { DedupeByContent1767500000000 } from './1767500000000-dedupe-by-content.migration';
import { SweepByTime1767600000000 } from './1767600000000-sweep-by-time.migration';
import { SweepMarks1767700000000 } from './1767700000000-sweep-marks.migration';
import { ReleaseActor1767800000000 } from './1767800000000-release-actor.migration';
import { NoticeSignatures1767900000000 } from './1767900000000-notice-signatures.migration';
import { EmailObjects1768000000000 } from './1768000000000-email-objects.migration';

/** Every migration of the ingest schema, oldest first. */
export const IngestMigrations: Function[] = [
  EmailEvidence1767300000000,
  Quarantine1767400000000,
  DedupeByContent1767500000000,
  SweepByTime1767600000000,
  SweepMarks1767700000000,
  ReleaseActor1767800000000,
  NoticeSignatures1767900000000,
  EmailObjects1768000000000,
];
