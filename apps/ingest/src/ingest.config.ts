import { BaseConfig, toInt, WithDatabase, WithMetricsPort } from '@pp/platform/config';
import { Transform } from 'class-transformer';
import { ArrayNotEmpty, IsInt, IsOptional, Matches, Max, Min, ValidateBy } from 'class-validator';
import { KEY_LOOKUP_DEADLINE_MS, loadDnsOverrides } from './authentication/dkim-resolver';

const DOMAIN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

const toDomainList = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.split(',').map((domain) => domain.trim().toLowerCase()).filter(Boolean) : value;

/** Why an INGEST_DNS_OVERRIDES path is unusable, or null when the file is a valid key map. */
function overridesProblem(path: unknown): string | null {
  if (typeof path !== 'string') return 'must be a path to a JSON file';
  try {
    loadDnsOverrides(path);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export class IngestConfig extends WithMetricsPort(WithDatabase(BaseConfig)) {
  /** DKIM signing domains trusted to send e-Transfer notices (comma-separated); notify@ and catch@ on them are the senders. */
  @Transform(toDomainList)
  @ArrayNotEmpty({ message: 'must list at least one domain, e.g. payments.interac.ca' })
  @Matches(DOMAIN, { each: true, message: 'must be comma-separated domain names, e.g. payments.interac.ca' })
  INGEST_TRUSTED_DKIM_DOMAINS: string[] = ['payments.interac.ca'];

  /** Path to a JSON map { "<selector>._domainkey.<domain>": "v=DKIM1; k=rsa; p=..." } answered instead of DNS. */
  @IsOptional()
  @ValidateBy({
    name: 'isDnsOverridesFile',
    validator: {
      validate: (value) => overridesProblem(value) === null,
      defaultMessage: (args) => overridesProblem(args?.value) ?? 'must be a path to a JSON file',
    },
  })
  INGEST_DNS_OVERRIDES?: string;

  /**
   * How often the processing sweeper runs, and how old an unfinished hand-off
   * must be before it repeats it (a younger one may still be in flight).
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of milliseconds' })
  @Min(500)
  @Max(3_600_000)
  INGEST_SWEEP_INTERVAL_MS = 60_000;

  /**
   * Deadline for reading one e-mail (MIME decoding and parsing, in a worker
   * thread). A notice takes milliseconds; a message still being read at the
   * deadline is recorded with the reason parse_timeout and never read again.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of milliseconds, e.g. 2000' })
  @Min(100, { message: 'must be at least 100 (milliseconds)' })
  @Max(60_000, { message: 'must be at most 60000 (milliseconds)' })
  INGEST_PARSE_TIMEOUT_MS = 2_000;

  /** Worker threads reading e-mails at once; one slow message then holds up only its own. */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of worker threads, e.g. 2' })
  @Min(1, { message: 'must be at least 1' })
  @Max(16, { message: 'must be at most 16' })
  INGEST_PARSE_WORKERS = 2;

  /**
   * Deadline for authenticating one e-mail (DKIM verification, in a worker
   * thread), key lookups included. A notice takes milliseconds plus its DNS
   * lookup; verification hashes the body once per signature, so a hostile
   * message can make it seconds of work. A message still being verified at the
   * deadline is recorded as unauthenticated with auth_timeout and never
   * verified again. At least twice the longest key lookup, so that slow DNS is
   * reported as DNS trouble (retried), never as a timeout.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of milliseconds, e.g. 10000' })
  @Min(2 * KEY_LOOKUP_DEADLINE_MS, {
    message: `must be at least ${2 * KEY_LOOKUP_DEADLINE_MS} (milliseconds): a DKIM key lookup alone may take ${KEY_LOOKUP_DEADLINE_MS}`,
  })
  @Max(60_000, { message: 'must be at most 60000 (milliseconds)' })
  INGEST_AUTH_TIMEOUT_MS = 10_000;

  /** Worker threads authenticating e-mails at once; one slow message then holds up only its own. */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of worker threads, e.g. 2' })
  @Min(1, { message: 'must be at least 1' })
  @Max(16, { message: 'must be at most 16' })
  INGEST_AUTH_WORKERS = 2;

  /**
   * How long a worker thread (reading or authenticating) may sit idle before
   * it is stopped: each keeps tens of MB of its own heap once it has worked,
   * and starting one again takes a fraction of a second when the next e-mail
   * comes (docs/PERFORMANCE.md).
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of milliseconds, e.g. 10000' })
  @Min(1_000, { message: 'must be at least 1000 (milliseconds)' })
  @Max(86_400_000, { message: 'must be at most 86400000 (milliseconds, a day)' })
  INGEST_WORKER_IDLE_MS = 10_000;
}
