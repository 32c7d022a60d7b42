import type { AppendStreamsReply, AppendStreamsRequest } from '@pp/contracts';
import { allAnswered } from '@pp/platform';
import type { ClientBase } from 'pg';
import { type Projection, projectBatch } from '../projections/projection';
import { type AppendContext, eventMetadata, hasDistinctStreams, streamRanges } from './append-request';
import { eventInserts, insertEventsAtExpectedVersions } from './insert-events';
import { type EventRow, toStoredEvent } from './stored-event.row';

export interface BatchedAppend {
  request: AppendStreamsRequest;
  context: AppendContext;
}

/**
 * The group commit's fast path: a whole batch of appends in a constant number
 * of statements (the idempotency keys and the events, sent together, then
 * every projection's, sent together) instead of several per append. It only
 * completes when every append is a plain new append that succeeds: it
 * answers undefined when one would not (a key already recorded, a stale
 * version), and throws on any error (a read model's unique rule, …). Only
 * for batches that `canAppendWhole`. In both cases the caller rolls back to
 * its savepoint and appends one at a time, so each append gets the answer it
 * would get on its own.
 */
export async function appendBatch(
  db: ClientBase,
  projections: readonly Projection[],
  batch: readonly BatchedAppend[],
): Promise<AppendStreamsReply[] | undefined> {
  const rows = batch.flatMap(({ request, context }) =>
    eventInserts(request.streams, JSON.stringify(eventMetadata(request, context))),
  );
  // Sent together (the append connection is pipelined): the events go in even when a key turns out to be
  // taken, and the caller's savepoint then takes them out again. An error (a concurrent writer) sends the
  // batch to the slow path.
  const [claimed, inserted] = await allAnswered<[boolean, EventRow[]]>([claimKeys(db, batch), insertEventsAtExpectedVersions(db, rows)]);
  if (!claimed) return undefined; // a replay or a refusal
  if (inserted.length !== rows.length) return undefined; // some stream was not at its expected version

  const stored = new Map(inserted.map((row) => [row.id, toStoredEvent(row)]));
  await projectBatch(db, projections, [...stored.values()].sort((a, b) => a.position - b.position));

  let next = 0;
  return batch.map(({ request }) => ({
    streams: request.streams.map((stream) => {
      const events = stream.events.map(() => stored.get(rows[next++].id)!);
      return { stream_id: stream.stream_id, version: stream.expected_version + events.length, events };
    }),
    replayed: false,
  }));
}

/**
 * Records every key of the batch in one statement; false when any was
 * already recorded (its append is a replay or a refusal, answered by the slow
 * path). A key held by a concurrent transaction makes the insert wait for
 * its outcome, as a single claim does.
 */
async function claimKeys(db: ClientBase, batch: readonly BatchedAppend[]): Promise<boolean> {
  const keyed = batch.flatMap(({ request }) => {
    const token = request.idempotency;
    return token ? [{ request, token, ranges: streamRanges(request) }] : [];
  });
  if (keyed.length === 0) return true;
  const { rowCount } = await db.query(
    `INSERT INTO ledger.idempotency_keys (merchant_id, livemode, key, fingerprint, stream_id, first_version, last_version, streams)
     SELECT * FROM unnest($1::text[], $2::boolean[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::jsonb[])
     ON CONFLICT DO NOTHING`,
    [
      keyed.map(({ request }) => request.metadata.merchant_id),
      keyed.map(({ request }) => request.metadata.livemode),
      keyed.map(({ token }) => token.key),
      keyed.map(({ token }) => token.fingerprint),
      keyed.map(({ ranges }) => ranges[0].stream_id),
      keyed.map(({ ranges }) => ranges[0].first_version),
      keyed.map(({ ranges }) => ranges[0].last_version),
      keyed.map(({ ranges }) => JSON.stringify(ranges)),
    ],
  );
  return rowCount === keyed.length;
}

/**
 * No append repeats a stream, and no two appends share a stream or an
 * idempotency key: otherwise one append's outcome depends on another's, which
 * only the one-at-a-time path answers.
 */
export function canAppendWhole(batch: readonly BatchedAppend[]): boolean {
  const streams = new Set<string>();
  const keys = new Set<string>();
  for (const { request } of batch) {
    if (!hasDistinctStreams(request)) return false;
    for (const stream of request.streams) {
      if (streams.has(stream.stream_id)) return false;
      streams.add(stream.stream_id);
    }
    if (request.idempotency) {
      const key = JSON.stringify([request.metadata.merchant_id, request.metadata.livemode, request.idempotency.key]);
      if (keys.has(key)) return false;
      keys.add(key);
    }
  }
  return true;
}
