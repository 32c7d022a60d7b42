import { type AppendStreamsRequest, DomainError, ErrorCode } from '@pp/contracts';
import { JsonLogger } from '@pp/platform';
import type { PoolClient } from 'pg';
import type { LedgerConfig } from '../ledger.config';
import type { AppendConnectionSource } from './append-connection';
import type { AppendMetrics } from './append.metrics';
import type { EventStore } from './event-store';
import { APPEND_PAST_DEADLINE, APPENDS_WAITING_TOO_MANY, GroupCommitAppender, WAITING_BATCHES } from './group-commit.appender';
import { LocalCommits } from './local-commits';

const BATCH = 2;
const LIMIT = BATCH * WAITING_BATCHES;

/** An appender whose first batch never gets its connection (a stalled commit): every later append waits behind it. */
const stalledAppender = () =>
  new GroupCommitAppender(
    { connect: () => new Promise<PoolClient>(() => undefined) } satisfies AppendConnectionSource,
    {} as EventStore,
    { LEDGER_APPEND_BATCH_MAX: BATCH } as LedgerConfig,
    new JsonLogger('ledger-test', 'error', () => undefined),
    {} as AppendMetrics,
    new LocalCommits(),
  );

const request = { streams: [], metadata: { merchant_id: 'mer_1', livemode: false } } as unknown as AppendStreamsRequest;
const outcomeOf = (append: Promise<unknown>) =>
  append.then(
    () => 'committed',
    (error: unknown) => (error instanceof DomainError ? `${error.code}: ${error.message}` : String(error)),
  );

describe('GroupCommitAppender, while a batch is stalled', () => {
  it('given as many appends waiting as its batches hold, when another comes, then it is refused at once, unwritten', async () => {
    const appender = stalledAppender();
    // The first append is taken to commit at once, alone (and stalls); LIMIT more wait behind it.
    const waiting = Array.from({ length: 1 + LIMIT }, () => outcomeOf(appender.appendStreams(request, {})));

    expect(await outcomeOf(appender.appendStreams(request, {}))).toBe(`${ErrorCode.ServiceUnavailable}: ${APPENDS_WAITING_TOO_MANY}`);
    expect(await Promise.race([Promise.race(waiting), new Promise((resolve) => setTimeout(() => resolve('still waiting'), 20))])).toBe('still waiting');
  });

  it('given the waiting appends past their deadlines, when another comes, then they are refused and it waits in their place', async () => {
    const appender = stalledAppender();
    void appender.appendStreams(request, {});
    const late = Array.from({ length: LIMIT }, () => outcomeOf(appender.appendStreams(request, { deadline: Date.now() + 20 })));
    await new Promise((resolve) => setTimeout(resolve, 40));

    let answered = false;
    void appender.appendStreams(request, {}).finally(() => (answered = true));

    expect(new Set(await Promise.all(late))).toEqual(new Set([`${ErrorCode.ServiceUnavailable}: ${APPEND_PAST_DEADLINE}`]));
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false); // waiting behind the stalled batch, not refused
  });
});
