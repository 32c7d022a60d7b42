import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { CONFIG, JsonLogger } from '@pp/platform';
import type { IngestConfig } from '../ingest.config';
import { SingleFlight } from '../worker/single-flight';
import { WorkerPool } from '../worker/worker-pool';
import { compiledWorkerScript } from '../worker/worker-script';
import { type AuthenticationAnswer, verdictOf } from './authentication-answer';
import { authenticationSettings } from './authentication-policy';
import type { AuthenticationResult } from './authentication.types';
import { unauthenticated } from './notice-authenticator';

/** Heap for one worker: mailauth holds a 5 MB message a few times over; a hostile one stops here. */
const WORKER_HEAP_MB = 256;

/** The compiled worker script (worker-script.ts). */
export const noticeAuthenticationScript = (): string => compiledWorkerScript(__filename, 'notice-authentication.worker.js');

/**
 * Authenticates raw e-mails (DKIM verification, header checks, the signed
 * recipient: notice-authenticator.ts) in worker threads, each under
 * INGEST_AUTH_TIMEOUT_MS, so that no message can block the event loop:
 * verification hashes the whole body once per signature, which a hostile
 * message can make seconds of work. A message past the deadline (or one that
 * kills its worker) is unauthenticated with `auth_timeout` (`auth_failed`),
 * recorded like any other verdict and never verified again. DNS trouble stays
 * what it was, no verdict: DkimKeyUnavailableError, and the e-mail is retried.
 */
@Injectable()
export class NoticeAuthentication implements OnModuleDestroy {
  private readonly pool: WorkerPool<Uint8Array, AuthenticationAnswer>;
  /** Verifications under way, by e-mail. */
  private readonly verifying = new SingleFlight<AuthenticationAnswer>();

  constructor(
    @Inject(CONFIG)
    config: Pick<IngestConfig, 'INGEST_TRUSTED_DKIM_DOMAINS' | 'INGEST_DNS_OVERRIDES' | 'INGEST_AUTH_TIMEOUT_MS' | 'INGEST_AUTH_WORKERS' | 'INGEST_WORKER_IDLE_MS'>,
    private readonly logger: JsonLogger,
  ) {
    this.pool = new WorkerPool({
      script: noticeAuthenticationScript(),
      size: config.INGEST_AUTH_WORKERS,
      deadlineMs: config.INGEST_AUTH_TIMEOUT_MS,
      retireIdleAfterMs: config.INGEST_WORKER_IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
      workerData: { settings: authenticationSettings(config) },
    });
  }

  /**
   * One e-mail's verdict; a second request for an e-mail still being verified
   * shares the first. Throws DkimKeyUnavailableError when a trusted key could
   * not be fetched (try again later), and rejects when the service is stopping
   * or the worker cannot start: the e-mail then stays unprocessed, for the sweeper.
   */
  async authenticate(emailId: string, raw: Uint8Array): Promise<AuthenticationResult> {
    return verdictOf(await this.verifying.run(emailId, () => this.verify(emailId, raw)));
  }

  private async verify(emailId: string, raw: Uint8Array): Promise<AuthenticationAnswer> {
    const run = await this.pool.run(raw);
    if (run.status === 'done') return run.output;
    if (run.status === 'timeout') {
      this.logger.warn(`authenticating e-mail ${emailId} overran its deadline; recorded as auth_timeout`);
      return { verdict: unauthenticated('auth_timeout') };
    }
    this.logger.warn(`authenticating e-mail ${emailId} killed its worker (${run.error.message}); recorded as auth_failed`);
    return { verdict: unauthenticated('auth_failed') };
  }

  onModuleDestroy(): Promise<void> {
    return this.pool.close();
  }
}
