import { Controller, Inject } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { propagation } from '@opentelemetry/api';
import { type AppendReply, AppendRequest, type AppendStreamsReply, AppendStreamsRequest, type ReadStreamReply, ReadStreamRequest, ReplayIdempotencyQuery } from '@pp/contracts';
import { BusContext, Handles } from '@pp/platform';
import type { Pool } from 'pg';
import type { AppendContext } from './append-request';
import type { EventStore } from './event-store';
import { EVENT_STORE, GroupCommitAppender } from './group-commit.appender';
import { LEDGER_POOL } from './ledger-pool';

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
    return this.appender.append(request, contextOf(ctx));
  }

  @Handles('ledger.append-streams.v1')
  appendStreams(@Payload() request: AppendStreamsRequest, @Ctx() ctx: BusContext): Promise<AppendStreamsReply> {
    return this.appender.appendStreams(request, contextOf(ctx));
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
    return this.store.readStream(this.pool, request.stream_id);
  }
}

function contextOf(ctx: BusContext): AppendContext {
  const trace: Record<string, string> = {};
  propagation.inject(ctx.meta.traceContext, trace);
  return { requestId: ctx.meta.requestId, trace };
}
