import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ledgerEventSubject } from '@pp/contracts';
import {
  checkStream,
  CONFIG,
  contextOf,
  DATABASE_CONNECT_TIMEOUT_MS,
  FailureStreak,
  HealthService,
  JsonLogger,
  ledgerEventsPlace,
  NATS_CONNECTION,
  POSTGRES_KEEPALIVE,
  PreparingClient,
  publishTraced,
  SERVICE_SESSION_LIMITS,
  sessionLimitParameters,
  subjectPrefix,
} from '@pp/platform';
import type { NatsConnection } from 'nats';
import type { Client, Pool } from 'pg';
import { EVENTS_COMMITTED_CHANNEL } from '../event-store/group-commit.appender';
import { LEDGER_POOL } from '../event-store/ledger-pool';
import { LocalCommits } from '../event-store/local-commits';
import { EVENT_COLUMNS, type EventRow, toStoredEvent } from '../event-store/stored-event.row';
import type { LedgerConfig } from '../ledger.config';
import { type Checkpoint, StoredCheckpoint } from './stored-checkpoint';
import { assertTransactionIdsAhead, PUBLICATION_ORDER_CHECK, TransactionIdsBehind } from './transaction-id-order';
import { WakeSignal } from './wake-signal';

/** The publisher's row in ledger.publication_checkpoints. */
export const PUBLISHER = 'jetstream';
/** Advisory lock held by the one replica that publishes. */
const LEADER_LOCK = 'pp:ledger:jetstream-publisher';
const PAGE_SIZE = 500;
/** How often a replica that is not the publisher tries to become it. */
const LEADERSHIP_RETRY_MS = 2000;
/**
 * While committed events wait behind a transaction still open elsewhere (see
 * publishPage), the publisher looks again after 5 ms, then twice as long each
 * time up to this: that transaction's end sends no notification when it is
 * not an append, and waiting for the next poll would hold the events back
 * for up to LEDGER_PUBLISH_POLL_MS.
 */
const HELD_BACK_MAX_WAIT_MS = 100;
/** Least time the leader's session may sit idle before Postgres ends it: 3x a page's longest JetStream wait (publishToStream's 5 s acknowledgement timeout). */
const LEADER_IDLE_FLOOR_MS = 15_000;
/** How long the leader's session may sit idle before Postgres ends it (and with it the leader lock). */
export const leaderIdleLimitMs = (pollMs: number): number => Math.max(LEADER_IDLE_FLOOR_MS, 3 * pollMs);

/**
 * The publisher's own connection: the leader lock and LISTEN live in its
 * session. Its page query and checkpoint run many times a second under load,
 * so they are prepared like the pool's (PreparingClient). A service's session
 * limits apply; the leader lock is held by the session, outside any
 * transaction, so they spare it.
 *
 * Nothing else would end the session of a leader that froze (a paused VM or
 * container, SIGSTOP, a peer gone behind a half-open TCP connection), and the
 * other replicas would wait for its lock for ever. So Postgres ends it once
 * it has sent nothing for `leaderIdleLimitMs` (`idle_session_timeout`,
 * Postgres 14 and later), which a live leader never reaches: it sends a query
 * at least every poll (LEDGER_PUBLISH_POLL_MS, a third of the limit at most),
 * and between a page's query and the next statement it only waits for
 * JetStream's acknowledgements, 5 s at most (opening the stream, two
 * JetStream requests, as long). TCP keepalive lets the client notice a
 * server that vanished behind a quiet connection, and a connect that gets no
 * answer ends after DATABASE_CONNECT_TIMEOUT_MS, as the pools' do, rather
 * than the OS's TCP timeout, which would hold the service's shutdown.
 */
export const publisherConnection = (url: string, pollMs: number): Client =>
  new PreparingClient({
    connectionString: url,
    application_name: 'ledger-publisher',
    ...sessionLimitParameters(SERVICE_SESSION_LIMITS),
    options: `-c idle_session_timeout=${leaderIdleLimitMs(pollMs)}`,
    ...POSTGRES_KEEPALIVE,
    connectionTimeoutMillis: DATABASE_CONNECT_TIMEOUT_MS,
  });

/**
 * Publishes committed events to JetStream at least once and without gaps
 * (PRODUCT-RULES §D2), each stream's events in position order. It reads only
 * rows whose transaction is surely over (`transaction_id < pg_snapshot_xmin`),
 * in (transaction_id, position) order, and checkpoints on that pair: a
 * transaction that took a lower position but commits later is still ahead of
 * the checkpoint, so it is never skipped. Across streams that order is the
 * transactions' (when each took its id), not the positions': two replicas'
 * concurrent batches may publish position 51 before 50 (docs/ARCHITECTURE.md,
 * Publication). One replica at a time publishes (session advisory lock on
 * its own connection, which Postgres ends when the leader freezes, so another
 * replica takes over: publisherConnection); its own replica's commits wake it in process
 * (LocalCommits), the others' NOTIFY after each commit, a poll backs it up,
 * and while committed events wait behind a transaction still open anywhere
 * in the cluster it looks again within milliseconds. It refuses to lead
 * while the cluster's transaction ids are behind the event store's (a
 * logical restore: TransactionIdsBehind), where it would skip every new
 * event; every replica's health answer says so, and it tries again at each
 * leadership retry, so publication resumes once the ids are ahead.
 */
@Injectable()
export class EventPublisher implements OnApplicationBootstrap, OnApplicationShutdown {
  private stopped = false;
  private loop?: Promise<void>;
  /** Commit notifications, errors and shutdown cut the publisher's waits short. */
  private readonly wakeup = new WakeSignal();
  private readonly prefix: string;
  private readonly failures: FailureStreak;
  /** Logged as errors, not warnings: only a person can mend it, and nothing is published until one does. */
  private readonly refusals: FailureStreak;

  constructor(
    @Inject(CONFIG) private readonly config: LedgerConfig,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly logger: JsonLogger,
    private readonly localCommits: LocalCommits,
    @Inject(LEDGER_POOL) pool: Pool,
    health: HealthService,
  ) {
    this.prefix = subjectPrefix(config.PP_NAMESPACE);
    this.failures = new FailureStreak(logger, 'event publisher', { failedMessage: 'event publisher stopped; retrying' });
    const errors = { warn: (message: unknown, ...rest: unknown[]) => logger.error(message, ...rest), info: logger.info.bind(logger) };
    this.refusals = new FailureStreak(errors, 'event publication', { failedMessage: 'event publication refused: transaction ids are behind the event store' });
    // Asked of the database by every replica, not of this one's publisher: whichever leads, each answers the same.
    health.register(PUBLICATION_ORDER_CHECK, () => assertTransactionIdsAhead(pool));
  }

  onApplicationBootstrap(): void {
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.wakeup.signal();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.leadWhilePossible();
        this.failures.succeeded(); // another replica leads
      } catch (error) {
        (error instanceof TransactionIdsBehind ? this.refusals : this.failures).failed(error);
      }
      await this.sleep(LEADERSHIP_RETRY_MS);
    }
  }

  private async leadWhilePossible(): Promise<void> {
    const db = publisherConnection(this.config.DATABASE_URL, this.config.LEDGER_PUBLISH_POLL_MS);
    let broken: Error | undefined;
    db.on('error', (error) => {
      broken = error;
      this.wakeup.signal();
    });
    db.on('notification', () => this.wakeup.signal());
    await db.connect();
    try {
      const { rows } = await db.query<{ leader: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS leader', [LEADER_LOCK]);
      if (!rows[0].leader) return;
      // Once per leadership: the ids can only fall behind in another cluster, and a new cluster means a new session.
      await assertTransactionIdsAhead(db);
      this.refusals.succeeded();
      await db.query(`LISTEN ${EVENTS_COMMITTED_CHANNEL}`);
      await this.openStream();
      this.logger.info('publishing ledger events to JetStream', { stream: ledgerEventsPlace(this.config.PP_NAMESPACE).name });
      this.failures.succeeded();
      const checkpoint = new StoredCheckpoint(await this.loadCheckpoint(db), (at) => this.saveCheckpoint(db, at));
      let heldBackWait = 0;
      // This replica's own commits wake it directly; other replicas' still come through LISTEN.
      const stopListening = this.localCommits.listen(() => this.wakeup.signal());
      try {
        while (!this.stopped) {
          if (broken) throw broken;
          const { published, next, heldBack, failure } = await this.publishPage(db, checkpoint.current);
          await checkpoint.moveTo(next);
          if (failure) throw failure.error; // stored below: the next leader starts after what JetStream acknowledged
          heldBackWait = heldBack ? Math.min(HELD_BACK_MAX_WAIT_MS, heldBackWait * 2 || 5) : 0;
          const wait = heldBack ? Math.min(heldBackWait, this.config.LEDGER_PUBLISH_POLL_MS) : this.config.LEDGER_PUBLISH_POLL_MS;
          if (heldBack || published < PAGE_SIZE) await this.sleep(Math.min(wait, checkpoint.dueInMs()));
        }
      } finally {
        stopListening();
        if (!broken) await checkpoint.save().catch(() => undefined); // after a clean stop or a refused publish, nothing acknowledged is published again
      }
    } finally {
      await db.end().catch(() => undefined);
    }
  }

  /** The migrate step makes the stream (jetstream-layout.ts); the ledger may only publish to it. */
  private async openStream(): Promise<void> {
    await checkStream(this.nc, ledgerEventsPlace(this.config.PP_NAMESPACE));
  }

  private async loadCheckpoint(db: Client): Promise<Checkpoint> {
    await db.query(
      `INSERT INTO ledger.publication_checkpoints (publisher, transaction_id, position) VALUES ($1, '0', 0) ON CONFLICT DO NOTHING`,
      [PUBLISHER],
    );
    const { rows } = await db.query<{ transaction_id: string; position: string }>(
      'SELECT transaction_id::text, position FROM ledger.publication_checkpoints WHERE publisher = $1',
      [PUBLISHER],
    );
    return { transactionId: rows[0].transaction_id, position: rows[0].position };
  }

  /**
   * Publishes one page and answers where the next starts. The page goes out
   * in one burst, in order, on the one connection (so JetStream stores it in
   * that order) instead of one round trip per event. If a publish fails, this
   * answers the failure with `next` at the last event of the unbroken run of
   * acknowledged ones before it; the caller stores that and starts leadership
   * again from it, so nothing is skipped, and the events already acknowledged
   * are not published again (after the stream's duplicate window JetStream
   * would store them twice). What JetStream has after the failed one is
   * dropped by its Nats-Msg-Id. Only then can an event land behind later ones
   * of its page; the one consumer (webhooks) dedupes by event id and does not
   * depend on the stream's order.
   */
  private async publishPage(
    db: Client,
    from: Checkpoint,
  ): Promise<{ published: number; next: Checkpoint; heldBack: boolean; failure?: { error: unknown } }> {
    // Settled rows (their transaction is below the oldest one still running) come first in this order, as a
    // prefix: only they are published. A committed row after them is held back by a transaction still open.
    // The order is on the xid8 column itself (qualified: a bare name would mean the text output column, whose
    // order puts '100000' before '99999' and, on a page cut there, would skip events), which the index also
    // gives, so a page reads its LIMIT rows, not the whole backlog.
    const { rows: page } = await db.query<EventRow & { transaction_id: string; settled: boolean }>(
      `SELECT e.transaction_id::text AS transaction_id, ${EVENT_COLUMNS}, e.transaction_id < pg_snapshot_xmin(pg_current_snapshot()) AS settled
         FROM ledger.events e
        WHERE (e.transaction_id, e.position) > ($1::xid8, $2::bigint)
        ORDER BY e.transaction_id, e.position
        LIMIT $3`,
      [from.transactionId, from.position, PAGE_SIZE],
    );
    const settled = page.findIndex((row) => !row.settled);
    const rows = settled < 0 ? page : page.slice(0, settled);
    const heldBack = settled >= 0;
    if (rows.length === 0) return { published: 0, next: from, heldBack };
    const acks = await Promise.allSettled(
      rows.map((row) => {
        const event = toStoredEvent(row);
        // A child of the append that stored the event (its metadata keeps that context), so the payment's trace goes on.
        return publishTraced(this.nc, this.prefix + ledgerEventSubject(event.type), Buffer.from(JSON.stringify(event)), event.id, contextOf(event.metadata.trace), event.metadata.correlation_id);
      }),
    );
    const failed = acks.findIndex((ack) => ack.status === 'rejected');
    const published = failed < 0 ? rows.length : failed;
    const last = rows[published - 1];
    const next = last ? { transactionId: last.transaction_id, position: last.position } : from;
    if (failed >= 0) return { published, next, heldBack, failure: { error: (acks[failed] as PromiseRejectedResult).reason } };
    return { published, next, heldBack };
  }

  private async saveCheckpoint(db: Client, at: Checkpoint): Promise<void> {
    await db.query(
      'UPDATE ledger.publication_checkpoints SET transaction_id = $2::xid8, position = $3, updated_at = now() WHERE publisher = $1',
      [PUBLISHER, at.transactionId, at.position],
    );
  }

  /** Waits `ms`, or less if a commit notification (or shutdown) comes first, or came during the last page. */
  private sleep(ms: number): Promise<void> {
    return this.stopped ? Promise.resolve() : this.wakeup.sleep(ms);
  }
}
