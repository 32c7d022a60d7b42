import { JsonLogger, serviceRole } from '@pp/platform';
import { repositoryDatabase } from '@pp/testing';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { IngestDatabase } from '../database/ingest.database';
import { IngestConfig } from '../ingest.config';
import type { EmailProcessor } from './email-processor';
import { OutcomeRepository } from './outcome.repository';
import type { ProcessedEmail } from './processed-email';
import { ProcessingSweeper } from './processing.sweeper';
import { SweepMarkRepository, type SweepWindowName } from './sweep-mark.repository';
import { storeEmailAt } from './stored-email.fixture';
import { SWEEP_MARGIN_MS } from './sweep-window';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const GRACE_MS = new IngestConfig().INGEST_SWEEP_INTERVAL_MS;

/*
 * The sweeper's marks on real Postgres, as the ingest's own role: a sweeper
 * that starts (a new pod, a restart) resumes where the last completed scan
 * of any replica left off, without one the first scan reads the whole
 * history, and a stored mark never moves back.
 */
describe('SweepMarkRepository and a restarted ProcessingSweeper (real Postgres, the ingest role)', () => {
  let admin: Pool;
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let marks: SweepMarkRepository;
  let outcomes: OutcomeRepository;

  beforeAll(async () => {
    ({ dataSource, admin, close } = await repositoryDatabase(IngestDatabase, 'ingestsweepmarks'));
    marks = new SweepMarkRepository(dataSource);
    outcomes = new OutcomeRepository(dataSource);
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });
  // Each case starts as a database no sweeper has marked yet (the table is not the role's to empty).
  beforeEach(async () => {
    await admin.query(`DELETE FROM ingest.sweep_marks`);
  });

  const dbNow = async (): Promise<Date> => (await admin.query(`SELECT statement_timestamp() AS now`)).rows[0].now;
  const storedMark = async (name: SweepWindowName): Promise<Date | undefined> =>
    (await admin.query(`SELECT since FROM ingest.sweep_marks WHERE name = $1`, [name])).rows[0]?.since;

  /** A stored e-mail received at `receivedAt`, without an outcome: its id. */
  const unprocessedEmailAt = (receivedAt: Date): Promise<string> => storeEmailAt(admin, receivedAt);
  /** Records an outcome for the e-mail (processed at `processedAt`, now by default), with no hand-off. */
  const recordOutcome = (emailId: string, processedAt: Date | null = null) =>
    admin.query(
      `INSERT INTO ingest.email_outcomes (email_id, status, authenticated, auth_reasons, parse_reasons, kind, authentication, parse, recipients, processed_at)
       VALUES ($1, 'unauthenticated', false, '{dkim_missing}', '{}', 'deposit', '{}', '{}', '{}', COALESCE($2, now())) ON CONFLICT DO NOTHING`,
      [emailId, processedAt],
    );
  /** An outcome processed at `processedAt` whose hand-off never completed: its e-mail's id. */
  const notHandedOffAt = async (processedAt: Date): Promise<string> => {
    const id = await unprocessedEmailAt(new Date(processedAt.getTime() - MINUTE));
    await recordOutcome(id, processedAt);
    return id;
  };

  /**
   * A pod's sweeper, booted and stopped after its first sweep, with a
   * processor that finishes what it is given (an outcome, a hand-off) and
   * records which rows it read.
   */
  const bootedSweeper = async () => {
    const read = { processed: [] as string[], handedOff: [] as string[] };
    const processor: Partial<EmailProcessor> = {
      processSafely: async (emailOrId) => {
        const id = typeof emailOrId === 'string' ? emailOrId : emailOrId.id;
        read.processed.push(id);
        await recordOutcome(id);
        return null;
      },
      handOffSafely: async (email: ProcessedEmail) => {
        read.handedOff.push(email.email_id);
        await admin.query(`INSERT INTO ingest.notice_handoffs (email_id, disposition) VALUES ($1, 'no_payment') ON CONFLICT DO NOTHING`, [email.email_id]);
      },
    };
    const sweeper = new ProcessingSweeper(processor as EmailProcessor, outcomes, marks, new JsonLogger('ingest', 'error', () => undefined), new IngestConfig());
    sweeper.onApplicationBootstrap();
    await sweeper.onModuleDestroy();
    return read;
  };

  it('given no stored mark, when a sweeper boots: its first scan reads the whole history, and it stores each window’s mark once done', async () => {
    const yearOld = await unprocessedEmailAt(new Date(Date.now() - 400 * DAY));
    const handOffYearOld = await notHandedOffAt(new Date(Date.now() - 400 * DAY));
    expect(await storedMark('unprocessed')).toBeUndefined();

    const read = await bootedSweeper();
    expect(read.processed).toContain(yearOld);
    expect(read.handedOff).toContain(handOffYearOld);
    expect(await storedMark('unprocessed')).toBeInstanceOf(Date);
    expect(await storedMark('handoff')).toBeInstanceOf(Date);
  });

  it('given a mark a completed scan stored, when a new sweeper starts (a restart): it reads from a margin before that mark, not further back', async () => {
    await bootedSweeper(); // The pod before: finishes whatever earlier cases left, so its successor finds nothing unfinished.
    await admin.query(`DELETE FROM ingest.sweep_marks`);
    const before = await dbNow();
    await bootedSweeper(); // The pod that stores the marks: nothing left unfinished, so each is its scan's horizon.
    const after = await dbNow();
    const unprocessedMark = (await storedMark('unprocessed'))!;
    const handoffMark = (await storedMark('handoff'))!;
    expect(unprocessedMark.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(unprocessedMark.getTime()).toBeLessThanOrEqual(after.getTime());
    expect(handoffMark.getTime()).toBeGreaterThanOrEqual(before.getTime() - GRACE_MS);
    expect(handoffMark.getTime()).toBeLessThanOrEqual(after.getTime() - GRACE_MS);

    // Rows stamped either side of where the next scan must start (as a slow transaction would commit them).
    const tooOld = await unprocessedEmailAt(new Date(unprocessedMark.getTime() - SWEEP_MARGIN_MS - MINUTE));
    const withinMargin = await unprocessedEmailAt(new Date(unprocessedMark.getTime() - SWEEP_MARGIN_MS + MINUTE));
    const handOffTooOld = await notHandedOffAt(new Date(handoffMark.getTime() - SWEEP_MARGIN_MS - MINUTE));
    const handOffWithinMargin = await notHandedOffAt(new Date(handoffMark.getTime() - SWEEP_MARGIN_MS + MINUTE));

    const restarted = await bootedSweeper();
    expect(restarted.processed).toContain(withinMargin);
    expect(restarted.processed).not.toContain(tooOld);
    expect(restarted.handedOff).toContain(handOffWithinMargin);
    expect(restarted.handedOff).not.toContain(handOffTooOld);
    // Its own scan's mark is older (the row within the margin was still unfinished), so the stored one stands.
    expect(await storedMark('unprocessed')).toEqual(unprocessedMark);
    expect(await storedMark('handoff')).toEqual(handoffMark);
  });

  it('given a mark stored for one window only, when a sweeper boots: the other window reads the whole history', async () => {
    const yearOld = await unprocessedEmailAt(new Date(Date.now() - 400 * DAY));
    const handOffYearOld = await notHandedOffAt(new Date(Date.now() - 400 * DAY));
    await marks.save('handoff', await dbNow());

    const read = await bootedSweeper();
    expect(read.processed).toContain(yearOld);
    expect(read.handedOff).not.toContain(handOffYearOld);
  });

  it('given marks the ingest role cannot read, when a sweeper boots: its first scan reads the whole history', async () => {
    await marks.save('unprocessed', await dbNow());
    const yearOld = await unprocessedEmailAt(new Date(Date.now() - 400 * DAY));
    const role = serviceRole('ingest');
    await admin.query(`REVOKE SELECT ON ingest.sweep_marks FROM ${role}`);
    try {
      await expect(marks.load()).rejects.toThrow(/permission denied/);
      expect((await bootedSweeper()).processed).toContain(yearOld);
    } finally {
      await admin.query(`GRANT SELECT ON ingest.sweep_marks TO ${role}`);
    }
  });

  describe('save', () => {
    const at = (iso: string) => new Date(iso);

    it('given no mark, when one is saved: it is loaded back to the millisecond', async () => {
      await marks.save('unprocessed', at('2026-11-24T10:00:00.123Z'));
      expect(await marks.load()).toEqual(new Map([['unprocessed', at('2026-11-24T10:00:00.123Z')]]));
    });

    it('given a stored mark, when an older one is saved (a replica whose scan ran behind): the stored mark stays; a later one moves it forward', async () => {
      await marks.save('unprocessed', at('2026-11-24T10:00:00.500Z'));
      await marks.save('unprocessed', at('2026-11-24T10:00:00.499Z'));
      expect((await marks.load()).get('unprocessed')).toEqual(at('2026-11-24T10:00:00.500Z'));
      await marks.save('unprocessed', at('2026-11-24T10:00:00.501Z'));
      expect((await marks.load()).get('unprocessed')).toEqual(at('2026-11-24T10:00:00.501Z'));
    });

    it('when replicas save marks at once: the latest stands, and each window keeps its own', async () => {
      const saved = Array.from({ length: 20 }, (_, i) => new Date(at('2026-11-24T10:00:00.000Z').getTime() + ((i * 7) % 20) * 1000));
      await Promise.all([...saved.map((mark) => marks.save('handoff', mark)), marks.save('unprocessed', at('2026-11-20T00:00:00.000Z'))]);
      expect(await marks.load()).toEqual(
        new Map([
          ['handoff', at('2026-11-24T10:00:19.000Z')],
          ['unprocessed', at('2026-11-20T00:00:00.000Z')],
        ]),
      );
    });

    it('the ingest role may not delete a mark', async () => {
      await marks.save('handoff', at('2026-11-24T10:00:00.000Z'));
      await expect(dataSource.query(`DELETE FROM ingest.sweep_marks`)).rejects.toThrow(/permission denied/);
      expect((await marks.load()).get('handoff')).toEqual(at('2026-11-24T10:00:00.000Z'));
    });
  });
});
