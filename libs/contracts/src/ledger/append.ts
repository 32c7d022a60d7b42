import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsInt, IsOptional, IsString, Length, Matches, Max, Min, ValidateNested } from 'class-validator';
import { DomainError, ErrorCode } from '../errors';
import { IdempotencyToken } from '../idempotency';
import { IsUtcTimestamp } from '../utc-timestamp';
import { AppendMetadata, type Event, EventBody, type StoredEvent } from './stored-event';

/** Stream ids are `<category>-<entity id>`, e.g. `checkout_session-<cuid>`. */
export const STREAM_ID_PATTERN = /^[a-z][a-z0-9_]*-[A-Za-z0-9_-]+$/;

/** A stream an append names. */
abstract class NamedStream {
  @IsString()
  @Matches(STREAM_ID_PATTERN, { message: 'stream_id must look like <category>-<id>' })
  @Length(3, 200)
  stream_id!: string;
}

/** One stream's part of an append: `events` go to `stream_id` if its last version is still `expected_version` (0: new stream). */
export class StreamAppend extends NamedStream {
  @IsInt()
  @Min(0)
  expected_version!: number;

  @ValidateNested({ each: true })
  @Type(() => EventBody)
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  events!: Event[];
}

/**
 * Request of `ledger.append.v1`: append `events` to `stream_id` if its last
 * version is still `expected_version` (0: the stream must not exist yet).
 */
export class AppendRequest extends StreamAppend {
  @ValidateNested()
  @Type(() => AppendMetadata)
  metadata!: AppendMetadata;

  /**
   * Recorded in the same transaction as the events, unique per merchant, mode
   * and key: a second append with the same key appends nothing and answers
   * the first one's events with `replayed: true` (exactly-once creation).
   */
  @IsOptional()
  @ValidateNested()
  @Type(() => IdempotencyToken)
  idempotency?: IdempotencyToken;
}

/** A stream an append requires at a version without writing to it. */
export class UnchangedStream extends NamedStream {
  @IsInt()
  @Min(0)
  version!: number;
}

/**
 * Request of `ledger.append-streams.v1`: several streams appended together,
 * all or nothing, in one savepoint. Each stream keeps its own optimistic
 * check, so a command that changes two aggregates (a payment confirming its
 * session) either changes both or neither. Stream ids must be distinct.
 */
export class AppendStreamsRequest {
  @ValidateNested({ each: true })
  @Type(() => StreamAppend)
  @ArrayMinSize(1)
  @ArrayMaxSize(10)
  streams!: StreamAppend[];

  @ValidateNested()
  @Type(() => AppendMetadata)
  metadata!: AppendMetadata;

  /** As on `ledger.append.v1`; a replay answers every stream of the original append. */
  @IsOptional()
  @ValidateNested()
  @Type(() => IdempotencyToken)
  idempotency?: IdempotencyToken;

  /**
   * Streams the decision read but does not write: the append commits only if
   * each is still at `version`, checked under the same stream locks as the
   * written ones (CONCURRENCY_CONFLICT otherwise). A decision that rests on
   * a stream it leaves alone (a failed simulated payment on an open session)
   * is refused when that stream moved, as a written one would be.
   */
  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => UnchangedStream)
  @ArrayMaxSize(10)
  unchanged?: UnchangedStream[];

  /**
   * The moment by which the append must commit, by the ledger's clock, checked just before COMMIT: a decision that
   * holds only until then (a payment completing a session open until its deadline) is refused CONCURRENCY_CONFLICT
   * (`details.rule` COMMIT_BEFORE_RULE) when its append would commit later, so its writer decides again on what is
   * true by then. An idempotency replay is answered whatever the time: it commits nothing.
   */
  @IsOptional()
  @IsUtcTimestamp('commit_before')
  commit_before?: string;
}

/** `details.rule` of the CONCURRENCY_CONFLICT for an append that would have committed after its `commit_before`. */
export const COMMIT_BEFORE_RULE = 'commit_before';

/** The ledger's refusal of an append that would have committed after its `commit_before`: a conflict, so its writer decides again. */
export const commitBeforePassed = (commitBefore: string): DomainError =>
  new DomainError(ErrorCode.ConcurrencyConflict, `The append was to commit before ${commitBefore} and was not committed; decide again`, {
    rule: COMMIT_BEFORE_RULE,
    commit_before: commitBefore,
  });

export interface StreamAppendResult {
  stream_id: string;
  /** The stream's last version after the append. */
  version: number;
  events: StoredEvent[];
}

export interface AppendStreamsReply {
  /** In the order of the request (of the original request, when replayed). */
  streams: StreamAppendResult[];
  replayed: boolean;
}

export interface AppendReply {
  stream_id: string;
  /** The stream's last version after the append (or after the original append, when replayed). */
  version: number;
  /** The events appended by this call, or by the original call when replayed. */
  events: StoredEvent[];
  replayed: boolean;
}

/** The most events a read of a stream's last ones may ask for. */
export const MAX_TAIL_EVENTS = 1000;

export class ReadStreamRequest {
  @IsString()
  @Matches(STREAM_ID_PATTERN, { message: 'stream_id must look like <category>-<id>' })
  @Length(3, 200)
  stream_id!: string;

  /** Only the stream's last `last` events, in order (the reply's version is still the stream's): for aggregates that fold their last events alone. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_TAIL_EVENTS)
  last?: number;
}

export interface ReadStreamReply {
  stream_id: string;
  /** 0 when the stream has no events. */
  version: number;
  events: StoredEvent[];
}

