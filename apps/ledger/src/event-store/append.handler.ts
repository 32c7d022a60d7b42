import { Controller, Inject } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { propagation } from '@opentelemetry/api';
import { type AppendReply, AppendRequest, type ReadStreamReply, ReadStreamRequest } from '@pp/contracts';
import { BusContext } from '@pp/platform';
import type { Pool } from 'pg';
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

  @MessagePattern('ledger.append.v1')
  append(@Payload() request: AppendRequest, @Ctx() ctx: BusContext): Promise<AppendReply> {
    const trace: Record<string, string> = {};
    propagation.inject(ctx.meta.traceContext, trace);
    return this.appender.append(request, { requestId: ctx.meta.requestId, trace });
  }

  @MessagePattern('ledger.stream.read.v1')
  read(@Payload() request: ReadStreamRequest): Promise<ReadStreamReply> {
    return this.store.readStream(this.pool, request.stream_id);
  }
}
