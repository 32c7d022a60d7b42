import { JsonLogger } from '@pp/platform';
import { waitFor } from '@pp/testing';
import { IngestConfig } from '../ingest.config';
import type { EmailProcessor } from './email-processor';
import type { ProcessedEmail } from './processed-email';
import type { OutcomeRepository, SweepCursor, SweepScan } from './outcome.repository';
import { ProcessingSweeper } from './processing.sweeper';
import type { SweepMarkRepository, SweepWindowName } from './sweep-mark.repository';
import { SWEEP_MARGIN_MS } from './sweep-window';

const SCANNED_AT = new Date('2026-11-24T10:00:00.000Z');
const receivedAt = (i: number) => new Date(SCANNED_AT.getTime() - 3_600_000 + i);
const GRACE_MS = new IngestConfig().INGEST_SWEEP_INTERVAL_MS;

/** Rows in scan order, read a page at a time after a cursor, as OutcomeRepository's scans are. */
function paged<T>(rows: readonly T[], idOf: (row: T) => string) {
  return (limit: number, after: SweepCursor | null): SweepScan<T> => {
    const start = after ? rows.findIndex((row) => idOf(row) === after.id) + 1 : 0;
    const found = rows.slice(start, start + limit);
    const last = found.length > 0 ? { at: receivedAt(start + found.length - 1), id: idOf(found[found.length - 1]) } : null;
    return { found, oldest: rows.length > 0 ? receivedAt(0) : null, scannedAt: SCANNED_AT, last };
  };
}

/** Scans that find nothing, and record the window each was asked for. */
function emptyScans() {
  const since: { unprocessed: (Date | null)[]; handoff: (Date | null)[] } = { unprocessed: [], handoff: [] };
  const outcomes: Partial<OutcomeRepository> = {
    unprocessed: async (limit, from, after) => (since.unprocessed.push(from), paged<string>([], String)(limit, after ?? null)),
    notHandedOff: async (_grace, limit, from, after) => (since.handoff.push(from), paged<ProcessedEmail>([], (email) => email.email_id)(limit, after ?? null)),
  };
  return { since, outcomes };
}

/** A mark store in memory, as SweepMarkRepository keeps it (a mark never moves back); `failing` makes a call throw. */
function markStore(stored: Partial<Record<SweepWindowName, Date>> = {}, failing: { load?: boolean; save?: SweepWindowName[] } = {}) {
  const marks = new Map(Object.entries(stored) as [SweepWindowName, Date][]);
  const saved: [SweepWindowName, Date][] = [];
  const repository: Partial<SweepMarkRepository> = {
    load: async () => {
      if (failing.load) throw new Error('connection refused');
      return new Map(marks);
    },
    save: async (name, since) => {
      if (failing.save?.includes(name)) throw new Error('permission denied for table sweep_marks');
      saved.push([name, since]);
      if (!marks.has(name) || marks.get(name)! < since) marks.set(name, since);
    },
  };
  return { repository, saved };
}

/** One sweep (the one the sweeper starts at boot), to its end; answers what it logged. */
async function sweepOnce(processor: Partial<EmailProcessor>, outcomes: Partial<OutcomeRepository>, marks: Partial<SweepMarkRepository> = markStore().repository) {
  const logged: { level: string; msg: string; [field: string]: unknown }[] = [];
  const logger = new JsonLogger('ingest', 'info', (line) => logged.push(JSON.parse(line)));
  const sweeper = new ProcessingSweeper(processor as EmailProcessor, outcomes as OutcomeRepository, marks as SweepMarkRepository, logger, new IngestConfig());
  sweeper.onApplicationBootstrap();
  await sweeper.onModuleDestroy();
  return logged;
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

  it('given unprocessed e-mails whose processing does not finish (key lookups of a DNS outage), when the sweeps go on, then a pending hand-off is repeated at each of them all the same', async () => {
    const pending = { email_id: 'em_pending01' } as ProcessedEmail;
    let letGo!: () => void;
    const stuck = new Promise<null>((resolve) => (letGo = () => resolve(null)));
    const repeats: string[] = [];
    const config = Object.assign(new IngestConfig(), { INGEST_SWEEP_INTERVAL_MS: 20 });
    const sweeper = new ProcessingSweeper(
      // The hand-off keeps failing (logged there, not thrown), so it stays pending for the next sweep.
      { processSafely: () => stuck, handOffSafely: async (email: ProcessedEmail) => void repeats.push(email.email_id) } as Partial<EmailProcessor> as EmailProcessor,
      {
        unprocessed: async (limit, _since, after) => paged(['em_unproc01'], String)(limit, after ?? null),
        notHandedOff: async (_grace, limit, _since, after) => paged([pending], (email) => email.email_id)(limit, after ?? null),
      } as Partial<OutcomeRepository> as OutcomeRepository,
      markStore().repository as SweepMarkRepository,
      new JsonLogger('ingest', 'info', () => undefined),
      config,
    );
    sweeper.onApplicationBootstrap();
    try {
      await waitFor('the hand-off repeated by two sweeps', () => repeats.length >= 2, { timeoutMs: 5_000, intervalMs: 5 });
      expect(new Set(repeats)).toEqual(new Set(['em_pending01']));
    } finally {
      letGo();
      await sweeper.onModuleDestroy();
    }
  });

  describe('stored marks', () => {
    const UNPROCESSED_MARK = new Date('2026-11-24T08:00:00.000Z');
    const HANDOFF_MARK = new Date('2026-11-24T07:00:00.000Z');

    it('given marks a completed scan stored, when a new sweeper first sweeps, then each window starts a margin before its mark', async () => {
      const { since, outcomes } = emptyScans();
      await sweepOnce({}, outcomes, markStore({ unprocessed: UNPROCESSED_MARK, handoff: HANDOFF_MARK }).repository);
      expect(since.unprocessed).toEqual([new Date(UNPROCESSED_MARK.getTime() - SWEEP_MARGIN_MS)]);
      expect(since.handoff).toEqual([new Date(HANDOFF_MARK.getTime() - SWEEP_MARGIN_MS)]);
    });

    it('given a mark stored for one window only, when a new sweeper first sweeps, then the other window reads everything', async () => {
      const { since, outcomes } = emptyScans();
      await sweepOnce({}, outcomes, markStore({ handoff: HANDOFF_MARK }).repository);
      expect(since.unprocessed).toEqual([null]);
      expect(since.handoff).toEqual([new Date(HANDOFF_MARK.getTime() - SWEEP_MARGIN_MS)]);
    });

    it('given marks that cannot be read, when a new sweeper first sweeps, then both windows read everything, the failure is logged and the scans’ marks are still stored', async () => {
      const { since, outcomes } = emptyScans();
      const store = markStore({ unprocessed: UNPROCESSED_MARK, handoff: HANDOFF_MARK }, { load: true });
      const logged = await sweepOnce({}, outcomes, store.repository);
      expect(since).toEqual({ unprocessed: [null], handoff: [null] });
      expect(logged).toContainEqual(expect.objectContaining({ level: 'warn', error: 'connection refused', marks: 'load' }));
      expect(store.saved.map(([name]) => name).sort()).toEqual(['handoff', 'unprocessed']);
    });

    it('given completed scans, when swept, then each window stores its mark: the oldest unfinished row, or the horizon (less the hand-off grace) when none', async () => {
      const store = markStore();
      await sweepOnce(
        { processSafely: async () => null },
        {
          unprocessed: async (limit, _since, after) => paged(['em_001'], String)(limit, after ?? null),
          notHandedOff: async (_grace, limit, _since, after) => paged<ProcessedEmail>([], (email) => email.email_id)(limit, after ?? null),
        },
        store.repository,
      );
      expect(new Map(store.saved)).toEqual(
        new Map([
          ['unprocessed', receivedAt(0)],
          ['handoff', new Date(SCANNED_AT.getTime() - GRACE_MS)],
        ]),
      );
      expect(store.saved).toHaveLength(2);
    });

    it('given a scan that fails, when swept, then no mark is stored for it, and the other scan still stores its own', async () => {
      const store = markStore();
      const logged = await sweepOnce(
        {},
        {
          unprocessed: async () => {
            throw new Error('statement timeout');
          },
          notHandedOff: async () => paged<ProcessedEmail>([], (email) => email.email_id)(50, null),
        },
        store.repository,
      );
      expect(store.saved.map(([name]) => name)).toEqual(['handoff']);
      expect(logged).toContainEqual(expect.objectContaining({ level: 'warn', msg: 'processing sweep failed', error: 'statement timeout' }));
    });

    it('given a mark that cannot be stored, when swept, then the failure is logged and the sweep goes on to the hand-offs and stores their mark', async () => {
      const { since, outcomes } = emptyScans();
      const store = markStore({}, { save: ['unprocessed'] });
      const logged = await sweepOnce({}, outcomes, store.repository);
      expect(since.handoff).toHaveLength(1);
      expect(store.saved.map(([name]) => name)).toEqual(['handoff']);
      expect(logged).toContainEqual(expect.objectContaining({ level: 'warn', error: 'permission denied for table sweep_marks', marks: 'save', window: 'unprocessed' }));
      expect(logged).not.toContainEqual(expect.objectContaining({ msg: 'processing sweep failed' }));
    });
  });
});
