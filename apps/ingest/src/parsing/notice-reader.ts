import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { CONFIG, JsonLogger } from '@pp/platform';
import type { IngestConfig } from '../ingest.config';
import { SingleFlight } from '../worker/single-flight';
import { WorkerPool } from '../worker/worker-pool';
import { compiledWorkerScript } from '../worker/worker-script';
import { type NoticeReading, unreadableNotice } from './notice-parser';

/** Heap for one worker: far above what a capped message needs (parse-limits.ts), low enough to stop a decoding bomb. */
const WORKER_HEAP_MB = 256;

/** The compiled worker script (worker-script.ts). */
export const noticeReaderScript = (): string => compiledWorkerScript(__filename, 'notice-reader.worker.js');

/**
 * Reads raw e-mails (MIME decoding and notice parsing) in worker threads, each
 * under INGEST_PARSE_TIMEOUT_MS, so that one hostile message can neither block
 * the event loop nor be read again and again: a message that overruns the
 * deadline (or kills its worker) yields a rejected parse with the reason
 * `parse_timeout` (or `parse_failed`), recorded like any other outcome.
 */
@Injectable()
export class NoticeReader implements OnModuleDestroy {
  private readonly pool: WorkerPool<Uint8Array, NoticeReading>;
  /** Reads under way, by e-mail. */
  private readonly reading = new SingleFlight<NoticeReading>();

  constructor(
    @Inject(CONFIG) config: Pick<IngestConfig, 'INGEST_PARSE_TIMEOUT_MS' | 'INGEST_PARSE_WORKERS' | 'INGEST_WORKER_IDLE_MS'>,
    private readonly logger: JsonLogger,
  ) {
    this.pool = new WorkerPool({
      script: noticeReaderScript(),
      size: config.INGEST_PARSE_WORKERS,
      deadlineMs: config.INGEST_PARSE_TIMEOUT_MS,
      retireIdleAfterMs: config.INGEST_WORKER_IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
  }

  /**
   * One e-mail's reading; a second request for an e-mail still being read shares
   * the first. Rejects only when the service is stopping or the worker cannot
   * start: the e-mail then stays unprocessed, for the sweeper.
   */
  read(emailId: string, raw: Uint8Array): Promise<NoticeReading> {
    return this.reading.run(emailId, () => this.readOnce(emailId, raw));
  }

  private async readOnce(emailId: string, raw: Uint8Array): Promise<NoticeReading> {
    const run = await this.pool.run(raw);
    if (run.status === 'done') return run.output;
    if (run.status === 'timeout') {
      this.logger.warn(`reading e-mail ${emailId} overran its deadline; recorded as parse_timeout`);
      return { facts: null, parse: unreadableNotice(null, 'parse_timeout') };
    }
    this.logger.warn(`reading e-mail ${emailId} killed its worker (${run.error.message}); recorded as parse_failed`);
    return { facts: null, parse: unreadableNotice(null, 'parse_failed') };
  }

  onModuleDestroy(): Promise<void> {
    return this.pool.close();
  }
}
