import type { AppendStreamsReply, AppendStreamsRequest, UnchangedStream } from '@pp/contracts';
import { allAnswered } from '@pp/platform';
import type { ClientBase } from 'pg';
import { type Projection, projectBatch } from '../projections/projection';
import { type AppendContext, eventMetadata, hasDistinctStreams, namedStreams, streamRanges } from './append-request';
import { appendedEvent, eventInserts, insertEventsAtExpectedVersions } from './insert-events';
import { type EventRow, toStoredEvent } from './stored-event.row';
import { movedStreams } from './unchanged-streams';

export interface BatchedAppend {
  request: AppendStreamsRequest;
  context: AppendContext;
}

/**
 * The group commit's fast path: a whole batch of appends in one round trip
 * (the idempotency keys, the events and every projection's statements, sent
 * together) instead of several per append. The projections read what the
 * insert assigns (position, time) from ledger.events in their own statements
 * (projection.ts), so they need not wait for its answer. It only completes
 * when every append is a plain new append that succeeds: it answers
 * undefined when one would not (a key already recorded, a stale version, a
 * stream required unchanged that moved), and throws on any error (a read model's unique rule, …). Only for batches
 * that `canAppendWhole`. In both cases the caller rolls back to its
 * savepoint, which also takes out whatever the projections wrote, and
 * appends one at a time, so each append gets the answer it would get on its
 * own.
 */
export async function appendBatch(
  db: ClientBase,
  projections: readonly Projection[],
  batch: readonly BatchedAppend[],
): Promise<AppendStreamsReply[] | undefined> {
  const rows = batch.flatMap(({ request, context }) => eventInserts(request.streams, eventMetadata(request, context)));
  // Sent together, in this order, on the pipelined append connection: each statement sees what the ones before
  // it wrote. When a key turns out to be taken or a stream has moved, the events and read-model rows still go in,
  // and the caller's savepoint takes them out again. An error (a concurrent writer, a unique rule) sends the batch
  // to the slow path.
  const [claimed, moved, inserted] = await allAnswered<[boolean, UnchangedStream[], EventRow[], void]>([
    claimKeys(db, batch),
    movedStreams(db, batch.flatMap(({ request }) => request.unchanged ?? [])),
    insertEventsAtExpectedVersions(db, rows),
    projectBatch(db, projections, rows.map(appendedEvent)),
  ]);
  if (!claimed) return undefined; // a replay or a refusal
  if (moved.length > 0) return undefined; // a stream some append requires unchanged has moved
  if (inserted.length !== rows.length) return undefined; // some stream was not at its expected version

  const stored = new Map(inserted.map((row) => [row.id, toStoredEvent(row)]));
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
 * No append repeats a stream, and no two appends share a stream (written or
 * required unchanged) or an idempotency key: otherwise one append's outcome
 * depends on another's, which only the one-at-a-time path answers.
 */
export function canAppendWhole(batch: readonly BatchedAppend[]): boolean {
  const streams = new Set<string>();
  const keys = new Set<string>();
  for (const { request } of batch) {
    if (!hasDistinctStreams(request)) return false;
    for (const streamId of namedStreams(request)) {
      if (streams.has(streamId)) return false;
      streams.add(streamId);
    }
    if (request.idempotency) {
      const key = JSON.stringify([request.metadata.merchant_id, request.metadata.livemode, request.idempotency.key]);
      if (keys.has(key)) return false;
      keys.add(key);
    }
  }
  return true;
}
