import { Controller, Inject } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import {
  type AppendReply,
  AppendRequest,
  type AppendStreamsReply,
  AppendStreamsRequest,
  DomainError,
  ErrorCode,
  type ReadStreamReply,
  ReadStreamRequest,
  ReplayIdempotencyQuery,
} from '@pp/contracts';
import { BusContext, Handles, inSpan, traceCarrier } from '@pp/platform';
import type { Pool } from 'pg';
import type { AppendContext } from './append-request';
import type { EventStore } from './event-store';
import { EVENT_STORE, GroupCommitAppender } from './group-commit.appender';
import { LEDGER_POOL } from './ledger-pool';
import { readFirstEvents } from './first-events';
import { refusalOfRefundAppend, storedStreamsToRead } from './refund-appends.policy';

/** The event store on the bus: optimistic appends (group-committed) and stream reads. */
@Controller()
export class AppendHandler {
  constructor(
    private readonly appender: GroupCommitAppender,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LEDGER_POOL) private readonly pool: Pool,
  ) {}

  @Handles('ledger.append.v1')
  append(@Payload() request: AppendRequest, @Ctx() ctx: BusContext): Promise<AppendReply> {
    return inAppendSpan([request.stream_id], () => this.appender.append(request, contextOf(ctx)));
  }

  @Handles('ledger.append-streams.v1')
  appendStreams(@Payload() request: AppendStreamsRequest, @Ctx() ctx: BusContext): Promise<AppendStreamsReply> {
    return inAppendSpan(
      request.streams.map((stream) => stream.stream_id),
      () => this.appender.appendStreams(request, contextOf(ctx)),
    );
  }

  /**
   * The refunds service's appends: only what a refund writes, checked against the streams' first events before
   * anything waits for a batch. A first event never changes once written, so it may be read outside the append.
   */
  @Handles('ledger.append-refund-streams.v1')
  async appendRefundStreams(@Payload() request: AppendStreamsRequest, @Ctx() ctx: BusContext): Promise<AppendStreamsReply> {
    const refusal = refusalOfRefundAppend(request, await readFirstEvents(this.pool, storedStreamsToRead(request)));
    if (refusal) throw new DomainError(ErrorCode.Forbidden, refusal);
    return this.appendStreams(request, ctx);
  }

  @Handles('ledger.idempotency.replay.v1')
  async replay(@Payload() query: ReplayIdempotencyQuery): Promise<AppendStreamsReply> {
    const db = await this.pool.connect();
    try {
      return await this.store.replayKey(db, query.merchant_id, query.livemode, query.idempotency);
    } finally {
      db.release();
    }
  }

  @Handles('ledger.stream.read.v1')
  read(@Payload() request: ReadStreamRequest): Promise<ReadStreamReply> {
    return this.store.readStream(this.pool, request.stream_id, request.last);
  }
}

/**
 * The append's span: its context is what the events' metadata keep (contextOf, called inside it), so their
 * publication, consumption and first webhook attempts join the trace of the request that caused them.
 */
const inAppendSpan = <T>(streamIds: string[], append: () => Promise<T>): Promise<T> =>
  inSpan('pp-ledger', 'ledger append', { attributes: { 'ledger.stream_ids': streamIds } }, append);

function contextOf(ctx: BusContext): AppendContext {
  return { requestId: ctx.meta.requestId, trace: traceCarrier(), deadline: ctx.meta.deadline };
}
