import { JsonLogger } from '@pp/platform';
import { IngestConfig } from '../ingest.config';
import type { EmailProcessor } from './email-processor';
import type { ProcessedEmail } from './processed-email';
import type { OutcomeRepository, SweepCursor, SweepScan } from './outcome.repository';
import { ProcessingSweeper } from './processing.sweeper';

const SCANNED_AT = new Date('2026-11-24T10:00:00.000Z');
const receivedAt = (i: number) => new Date(SCANNED_AT.getTime() - 3_600_000 + i);

/** Rows in scan order, read a page at a time after a cursor, as OutcomeRepository's scans are. */
function paged<T>(rows: readonly T[], idOf: (row: T) => string) {
  return (limit: number, after: SweepCursor | null): SweepScan<T> => {
    const start = after ? rows.findIndex((row) => idOf(row) === after.id) + 1 : 0;
    const found = rows.slice(start, start + limit);
    const last = found.length > 0 ? { at: receivedAt(start + found.length - 1), id: idOf(found[found.length - 1]) } : null;
    return { found, oldest: rows.length > 0 ? receivedAt(0) : null, scannedAt: SCANNED_AT, last };
  };
}

/** One sweep (the one the sweeper starts at boot), to its end. */
async function sweepOnce(processor: Partial<EmailProcessor>, outcomes: Partial<OutcomeRepository>): Promise<void> {
  const sweeper = new ProcessingSweeper(processor as EmailProcessor, outcomes as OutcomeRepository, new JsonLogger('ingest', 'error', () => undefined), new IngestConfig());
  sweeper.onApplicationBootstrap();
  await sweeper.onModuleDestroy();
}

describe('ProcessingSweeper', () => {
  it('given more unprocessed e-mails than a page, the first page’s staying unprocessed (DKIM keys that keep failing), when swept, then every one is tried', async () => {
    const ids = Array.from({ length: 120 }, (_, i) => `em_${String(i).padStart(3, '0')}`);
    const tried: string[] = [];
    const unprocessed = paged(ids, (id) => id);
    await sweepOnce(
      { processSafely: async (id: string) => (tried.push(id), null) },
      { unprocessed: async (limit, _since, after) => unprocessed(limit, after ?? null), notHandedOff: async (_grace, limit, _since, after) => paged([], String)(limit, after ?? null) },
    );
    expect(tried).toEqual(ids);
  });

  it('given more hand-offs to repeat than a page, the oldest failing every time, when swept, then the ones behind it are repeated too', async () => {
    const pending = Array.from({ length: 70 }, (_, i) => ({ email_id: `em_${String(i).padStart(3, '0')}` }) as ProcessedEmail);
    const repeated: string[] = [];
    const notHandedOff = paged(pending, (email) => email.email_id);
    await sweepOnce(
      {
        processSafely: async () => null,
        // As EmailProcessor.handOffSafely does, a failing hand-off (em_000) is logged there, not thrown.
        handOffSafely: async (email) => void (email.email_id === 'em_000' ? undefined : repeated.push(email.email_id)),
      },
      {
        unprocessed: async (limit, _since, after) => paged<string>([], String)(limit, after ?? null),
        notHandedOff: async (_grace, limit, _since, after) => notHandedOff(limit, after ?? null),
      },
    );
    expect(repeated).toEqual(pending.slice(1).map((email) => email.email_id));
  });
});
