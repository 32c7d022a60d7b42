import { join, relative, resolve } from 'node:path';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { CONFIG, JsonLogger } from '@pp/platform';
import type { IngestConfig } from '../ingest.config';
import { type NoticeReading, unreadableNotice } from './notice-parser';
import { WorkerPool } from './worker-pool';

/** Heap for one worker: far above what a capped message needs (parse-limits.ts), low enough to stop a decoding bomb. */
const WORKER_HEAP_MB = 256;

/**
 * The compiled worker script. Services run from dist/, where it sits next to
 * this module; under jest this module runs from its TypeScript source, and
 * the script comes from the dist/ build that jest's global set-up makes first.
 */
export function noticeReaderScript(): string {
  const script = 'notice-reader.worker.js';
  if (!__filename.endsWith('.ts')) return join(__dirname, script);
  const root = resolve(__dirname, '../../../..');
  return join(root, 'dist', relative(root, __dirname), script);
}

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
  /** Reads under way, by e-mail: the sweeper may pick up an e-mail whose inline reading is still queued. */
  private readonly reading = new Map<string, Promise<NoticeReading>>();

  constructor(
    @Inject(CONFIG) config: Pick<IngestConfig, 'INGEST_PARSE_TIMEOUT_MS' | 'INGEST_PARSE_WORKERS'>,
    private readonly logger: JsonLogger,
  ) {
    this.pool = new WorkerPool({
      script: noticeReaderScript(),
      size: config.INGEST_PARSE_WORKERS,
      deadlineMs: config.INGEST_PARSE_TIMEOUT_MS,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
  }

  /**
   * One e-mail's reading; a second request for an e-mail still being read shares
   * the first. Rejects only when the service is stopping or the worker cannot
   * start: the e-mail then stays unprocessed, for the sweeper.
   */
  read(emailId: string, raw: Uint8Array): Promise<NoticeReading> {
    let reading = this.reading.get(emailId);
    if (!reading) {
      reading = this.readOnce(emailId, raw).finally(() => this.reading.delete(emailId));
      this.reading.set(emailId, reading);
    }
    return reading;
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
