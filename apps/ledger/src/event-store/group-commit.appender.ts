import { Inject, Injectable } from '@nestjs/common';
import { type AppendReply, type AppendRequest, type AppendStreamsReply, type AppendStreamsRequest, commitBeforePassed, DomainError, ErrorCode } from '@pp/contracts';
import { allAnswered, CONFIG, isConnectionLost, JsonLogger } from '@pp/platform';
import type { PoolClient } from 'pg';
import type { LedgerConfig } from '../ledger.config';
import type { AppendContext } from './append-request';
import { AppendMetrics } from './append.metrics';
import { canAppendWhole } from './batch-append';
import type { EventStore } from './event-store';
import { AppendConnection, type AppendConnectionSource } from './append-connection';
import { isPastCommitBefore } from './commit-before';
import { backendPidOf, type CommitOutcome, commitOutcome } from './commit-outcome';
import { LocalCommits } from './local-commits';
import { takeAppendLocks } from './stream-locks';

/** NOTIFY channel that wakes the JetStream publisher after a commit. */
export const EVENTS_COMMITTED_CHANNEL = 'ledger_events_committed';

export const EVENT_STORE = Symbol('EVENT_STORE');

/** An append whose caller's deadline passed while it waited for its batch: refused, nothing written. */
export const APPEND_PAST_DEADLINE = 'The append waited past its caller’s deadline and was not committed; retry the request';

/** A batch whose connection was lost after COMMIT was sent, and whose outcome could not be looked up. */
export const COMMIT_OUTCOME_UNKNOWN =
  'The event store lost its connection as it committed and could not tell whether the append committed; retry the request with the same Idempotency-Key';

/** A batch found rolled back after its connection was lost a second time: nothing of it was written. */
export const NOT_COMMITTED = 'The event store could not commit; nothing was written; retry the request';

/** An append that came while as many waited as WAITING_BATCHES batches hold: refused at once, nothing written. */
export const APPENDS_WAITING_TOO_MANY = 'The event store has too many appends waiting; retry the request';

/**
 * How many full batches may wait behind the one committing. A batch stalled on a lock or a slow COMMIT (up to the
 * statement timeout) would otherwise hold in memory every append that came meanwhile, each up to a bus message: at
 * thousands a second, gigabytes. Past this, appends are refused at once, as their callers would time out anyway.
 */
export const WAITING_BATCHES = 25;

interface PendingAppend {
  request: AppendStreamsRequest;
  context: AppendContext;
  /** performance.now() when it reached the ledger. */
  arrivedAt: number;
  resolve(reply: AppendStreamsReply): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; reply: AppendStreamsReply } | { ok: false; error: unknown };

/** A batch's connection was lost before its COMMIT was sent: Postgres rolled the transaction back, so the batch may run again. */
class LostBeforeCommit extends Error {
  constructor(cause: unknown) {
    super(`connection lost before COMMIT: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * A batch's connection was lost after its COMMIT was sent: the transaction may have committed or not, which is
 * looked up (commit-outcome.ts) before the batch is answered or run again. Keeps the answers the batch would give.
 */
class LostAtCommit extends Error {
  constructor(
    readonly backendPid: number | undefined,
    readonly outcomes: Outcome[],
    cause: unknown,
  ) {
    super(`connection lost after COMMIT was sent: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * Appends of the batch came past their callers' deadlines, or past the moment they were to commit before, while it
 * ran (waiting on a stream lock another replica's batch held, or on a rebuild's read-model lock): it was rolled back
 * before COMMIT, to run again without them.
 */
class LateBeforeCommit extends Error {
  constructor(readonly late: readonly PendingAppend[]) {
    super('appends of the batch passed their deadlines before COMMIT');
  }
}

/**
 * Appends one transaction takes one at a time, each under its own savepoint, released after it (rolled back first if
 * it failed, so none nests in another). Every savepoint that writes and is kept takes a subtransaction id until
 * COMMIT (a rolled-back one gives its id up); past 64 in one transaction Postgres' per-backend cache of them
 * overflows, and while that transaction is open every snapshot in the cluster must look them up in pg_subtrans.
 */
const ONE_BY_ONE_MAX = 64;

/** A batch larger than ONE_BY_ONE_MAX whose whole try did not go through: rolled back, to run again in parts of that size. */
class TooLargeForOneByOne extends Error {
  constructor() {
    super(`the batch could not go whole and holds more than ${ONE_BY_ONE_MAX} appends`);
  }
}

const isPastDeadline = (item: PendingAppend, now: number): boolean => item.context.deadline !== undefined && item.context.deadline <= now;

/** Whether an append's outcome writes events (not a replay, not a refusal). */
const writes = (outcome: Outcome | undefined): boolean => outcome !== undefined && outcome.ok && !outcome.reply.replayed;

/**
 * Group commit: appends that arrive while a transaction is committing wait,
 * then all go into the next transaction. The batch is first tried whole, in a
 * constant number of statements; if that does not go through cleanly it is
 * rolled back and each append runs under its own savepoint, so a failing
 * append (stale version, taken reference, replay) fails alone. One commit
 * (one WAL flush) then answers them all. Batches form by themselves under
 * load; a lone append is committed at once, with no added delay.
 */
@Injectable()
export class GroupCommitAppender {
  private readonly queue: PendingAppend[] = [];
  private committing = false;

  constructor(
    @Inject(AppendConnection) private readonly connection: AppendConnectionSource,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CONFIG) private readonly config: LedgerConfig,
    private readonly logger: JsonLogger,
    private readonly metrics: AppendMetrics,
    private readonly localCommits: LocalCommits,
  ) {}

  /** One stream: the one-element case of appendStreams. */
  async append(request: AppendRequest, context: AppendContext): Promise<AppendReply> {
    const { metadata, idempotency, ...stream } = request;
    const reply = await this.appendStreams({ streams: [stream], metadata, idempotency }, context);
    return { ...reply.streams[0], replayed: reply.replayed };
  }

  /** Several streams, all or nothing (one savepoint), committed with whatever else is in the batch. */
  appendStreams(request: AppendStreamsRequest, context: AppendContext): Promise<AppendStreamsReply> {
    if (!this.hasRoom()) return Promise.reject(new DomainError(ErrorCode.ServiceUnavailable, APPENDS_WAITING_TOO_MANY));
    return new Promise((resolve, reject) => {
      this.queue.push({ request, context, arrivedAt: performance.now(), resolve, reject });
      void this.drain();
    });
  }

  /** Whether another append may wait: the waiting ones past their deadlines are refused first, to make room. */
  private hasRoom(): boolean {
    const limit = this.config.LEDGER_APPEND_BATCH_MAX * WAITING_BATCHES;
    if (this.queue.length < limit) return true;
    const waiting = this.withinDeadline(this.queue);
    if (waiting !== this.queue) {
      this.queue.length = 0;
      for (const item of waiting) this.queue.push(item);
    }
    return this.queue.length < limit;
  }

  private async drain(): Promise<void> {
    if (this.committing) return;
    this.committing = true;
    try {
      while (this.queue.length > 0) await this.commit(this.queue.splice(0, this.config.LEDGER_APPEND_BATCH_MAX));
    } finally {
      this.committing = false;
    }
  }

  private async commit(queued: PendingAppend[]): Promise<void> {
    let batch = this.withinDeadline(queued);
    // Known before any connection is taken: a batch that cannot go whole goes one at a time, in parts of ONE_BY_ONE_MAX.
    if (batch.length > ONE_BY_ONE_MAX && !canAppendWhole(batch)) return this.commitInParts(batch);
    let outcomes: Outcome[] | undefined;
    let lostOnce = false;
    // Each round either answers the batch or leaves it smaller (a late append refused) or runs it on a new connection once.
    while (batch.length > 0 && outcomes === undefined) {
      try {
        outcomes = await this.runOnConnection(batch);
      } catch (error) {
        if (error instanceof LateBeforeCommit) {
          batch = this.withinDeadline(this.refuseCommitBeforePassed(batch, error.late));
        } else if (error instanceof TooLargeForOneByOne) {
          return this.commitInParts(batch);
        } else if (error instanceof LostBeforeCommit && !lostOnce) {
          // Most often a pooled connection the server ended while idle (a restart, an operator), which is found
          // dead only when used. Nothing of the batch committed, so it runs once more, on a new connection.
          this.logger.warn('the group commit connection was lost before the batch committed; running the batch again on a new connection', { error: error.message });
          lostOnce = true;
          batch = this.withinDeadline(batch);
        } else if (error instanceof LostAtCommit) {
          const outcome = await this.outcomeOf(error);
          this.logger.warn('the group commit connection was lost as the batch committed', { error: error.message, outcome });
          if (outcome === 'committed') {
            outcomes = error.outcomes;
          } else if (outcome === 'rolled-back' && !lostOnce) {
            lostOnce = true;
            batch = this.withinDeadline(batch);
          } else {
            // Rolled back on a second lost connection: nothing committed, and the batch is not run a third time.
            const failure = new DomainError(ErrorCode.ServiceUnavailable, outcome === 'rolled-back' ? NOT_COMMITTED : COMMIT_OUTCOME_UNKNOWN);
            for (const item of batch) item.reject(failure);
            return;
          }
        } else {
          this.logger.error(error instanceof Error ? error : new Error(String(error)), { batch: batch.length });
          const failure = new DomainError(ErrorCode.ServiceUnavailable, 'The event store could not commit; retry the request');
          for (const item of batch) item.reject(failure);
          return;
        }
      }
    }
    if (outcomes === undefined) return;
    this.answer(batch, outcomes);
  }

  /**
   * Whether a batch lost at COMMIT committed. One event it wrote tells; a batch that wrote none (replays, refusals
   * only) has the same answers either way. A committed one wakes the publisher, whose NOTIFY may have been lost too.
   */
  private async outcomeOf(lost: LostAtCommit): Promise<CommitOutcome> {
    const written = lost.outcomes.find((outcome) => outcome.ok && !outcome.reply.replayed);
    const eventId = written?.ok ? written.reply.streams.find((stream) => stream.events.length > 0)?.events[0].id : undefined;
    if (eventId === undefined) return 'committed';
    const outcome = await commitOutcome(this.connection, lost.backendPid, eventId);
    if (outcome === 'committed') this.localCommits.committed();
    return outcome;
  }

  /** A batch too large to run one at a time in one transaction, committed in transactions of ONE_BY_ONE_MAX at most. */
  private async commitInParts(batch: PendingAppend[]): Promise<void> {
    for (let start = 0; start < batch.length; start += ONE_BY_ONE_MAX) await this.commit(batch.slice(start, start + ONE_BY_ONE_MAX));
  }

  private answer(batch: PendingAppend[], outcomes: Outcome[]): void {
    if (this.config.LEDGER_TEST_CRASH_AFTER_COMMIT && outcomes.some((outcome) => outcome.ok && !outcome.reply.replayed)) {
      process.kill(process.pid, 'SIGKILL'); // test hook: committed, never answered
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) item.resolve(outcome.reply);
      else item.reject(outcome.error);
    });
    this.metrics.committed(
      batch.map((item) => item.arrivedAt),
      outcomes.flatMap((outcome) => (outcome.ok ? [outcome.reply] : [])),
    );
  }

  /**
   * The appends whose callers still wait; the others are refused unwritten. While a batch is held up (a rebuild's
   * lock, a stalled commit), appends queue behind it; committed after their callers were answered "unavailable", they
   * would be writes nobody saw succeed, and a caller without an idempotency key could not tell.
   */
  private withinDeadline(queued: PendingAppend[]): PendingAppend[] {
    const now = Date.now();
    const late = queued.filter((item) => isPastDeadline(item, now));
    if (late.length === 0) return queued;
    const refusal = new DomainError(ErrorCode.ServiceUnavailable, APPEND_PAST_DEADLINE);
    for (const item of late) item.reject(refusal);
    this.logger.warn('appends refused unwritten: their callers’ deadlines passed while they waited for a batch', { refused: late.length });
    return queued.filter((item) => !late.includes(item));
  }

  /** Refuses the late appends not past their callers' deadlines (their commit_before passed), and answers the batch without them. */
  private refuseCommitBeforePassed(batch: PendingAppend[], late: readonly PendingAppend[]): PendingAppend[] {
    const now = Date.now();
    const tooLate = late.filter((item) => !isPastDeadline(item, now));
    for (const item of tooLate) item.reject(commitBeforePassed(item.request.commit_before as string));
    if (tooLate.length > 0) this.logger.warn('appends refused unwritten: they would have committed after their commit_before', { refused: tooLate.length });
    return batch.filter((item) => !tooLate.includes(item));
  }

  /** One attempt at the batch; a connection that failed mid-transaction is discarded, not reused. */
  private async runOnConnection(batch: PendingAppend[]): Promise<Outcome[]> {
    const db = await this.connection.connect();
    try {
      const outcomes = await this.runBatch(db, batch);
      db.release();
      return outcomes;
    } catch (error) {
      // Rolled back to run again otherwise, the connection is sound and goes back to the pool; after any other error it is discarded.
      const sound = error instanceof LateBeforeCommit || error instanceof TooLargeForOneByOne;
      db.release(sound ? undefined : error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
  }

  /**
   * One transaction for the batch, in as few round trips as it allows:
   * statements that do not wait for each other's answers are sent together
   * (append-connection.ts), and the savepoint of a whole batch is never
   * released (COMMIT ends it anyway). A whole batch takes two: BEGIN with
   * the stream and read-model locks (stream-locks.ts), keys, events and
   * projections, then COMMIT.
   */
  private async runBatch(db: PoolClient, batch: PendingAppend[]): Promise<Outcome[]> {
    const whole = canAppendWhole(batch);
    // On the pipelined connection BEGIN and the locks travel with the batch's first statements. BEGIN
    // cannot fail on a live connection, and on a dead one nothing behind it runs either.
    const begun = allAnswered<unknown[]>([
      db.query('BEGIN'),
      takeAppendLocks(db, batch.map((item) => item.request)),
      ...(whole ? [db.query('SAVEPOINT batch')] : []),
    ]);
    let outcomes: Outcome[] | undefined;
    try {
      const [, fast] = await allAnswered([begun, whole ? this.appendWhole(db, batch) : Promise.resolve(undefined)]);
      if (!fast && batch.length > ONE_BY_ONE_MAX) throw new TooLargeForOneByOne();
      outcomes = fast ?? (await this.appendOneByOne(db, batch));
      const appended = outcomes.some((outcome) => outcome.ok && !outcome.reply.replayed);
      // Checked again here, as late as can be: the locks above may have waited on another batch or a rebuild for long.
      const now = Date.now();
      const late = batch.filter((item, i) => isPastDeadline(item, now) || isPastCommitBefore(item.request, writes(outcomes?.[i]), now));
      if (late.length > 0) throw new LateBeforeCommit(late);
      // The publisher is woken in this process when it leads here (local-commits.ts), through Postgres otherwise.
      await db.query(appended && !this.localCommits.heard ? `SELECT pg_notify('${EVENTS_COMMITTED_CHANNEL}', ''); COMMIT` : 'COMMIT');
      if (appended) this.localCommits.committed();
      return outcomes;
    } catch (error) {
      await db.query('ROLLBACK').catch(() => undefined);
      // The answers are known once every statement before COMMIT has answered: lost before, the connection committed
      // nothing; lost with them known, it was lost at COMMIT, which may have committed.
      if (!isConnectionLost(error)) throw error;
      throw outcomes === undefined ? new LostBeforeCommit(error) : new LostAtCommit(backendPidOf(db), outcomes, error);
    }
  }

  /**
   * The fast path: the whole batch in a few statements under the savepoint
   * `batch`. Undefined, with the savepoint rolled back, when it does not go
   * through cleanly (a replay, a conflict, a refused rule, any error): the
   * batch then goes one append at a time, where each gets its own answer.
   */
  private async appendWhole(db: PoolClient, batch: PendingAppend[]): Promise<Outcome[] | undefined> {
    try {
      const replies = await this.store.appendBatch(db, batch);
      if (replies) return replies.map((reply) => ({ ok: true, reply }));
    } catch {
      // answered one append at a time below, where the error belongs to its own append
    }
    // Released too: a savepoint rolled back to stays open, and the appends' own savepoints would nest inside it, the
    // first write giving it a subtransaction id of its own on top of theirs (ONE_BY_ONE_MAX counts theirs alone).
    await db.query('ROLLBACK TO SAVEPOINT batch; RELEASE SAVEPOINT batch');
    return undefined;
  }

  private async appendOneByOne(db: PoolClient, batch: PendingAppend[]): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    for (const item of batch) {
      await db.query('SAVEPOINT append');
      try {
        const reply = await this.store.appendStreams(db, item.request, item.context);
        await db.query('RELEASE SAVEPOINT append');
        outcomes.push({ ok: true, reply });
      } catch (error) {
        await db.query('ROLLBACK TO SAVEPOINT append; RELEASE SAVEPOINT append');
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  }
}
