import { Inject, Injectable } from '@nestjs/common';
import { type AppendStreamsReply, DomainError, ErrorCode, type MerchantScope, type StreamAppend } from '@pp/contracts';
import type { Clock } from '@pp/kernel';
import { AggregateStore } from './aggregate';
import { CLOCK } from './clock.token';
import { type AppendOptions, EVENT_STORE, type EventStore } from './event-store';

/** Rounds of load, decide, append before a contended command gives up: enough for any realistic burst on one stream. */
export const MAX_COMMAND_ATTEMPTS = 10;

/** What one round of a command sees: the aggregates it loads, and the time it decides at. */
export interface CommandRound {
  load: AggregateStore['load'];
  /**
   * The round's time, read from the clock when first asked and the same
   * after. Ask after loading: the read models list by position, so the
   * closer a fact's timestamp is to its append, the better the two orders agree.
   */
  now(): Date;
}

/** A round's outcome: nothing to append (answer now), or streams to append together and the answer to give from the reply. */
export type Decision<T> =
  | { append: false; answer: T }
  | {
      append: StreamAppend[];
      scope: MerchantScope;
      options?: AppendOptions;
      answer(reply: AppendStreamsReply): T | Promise<T>;
    };

/**
 * Runs a command: load, decide, append every stream it changes at the
 * version it was loaded at, all or nothing. When another command moved one
 * of those streams first (CONCURRENCY_CONFLICT), the round runs again on the
 * new state, so racing commands end in exactly one winner and each loser
 * answers from what the winner did.
 */
@Injectable()
export class CommandRunner {
  constructor(
    readonly aggregates: AggregateStore,
    @Inject(EVENT_STORE) readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async run<T>(round: (context: CommandRound) => Promise<Decision<T>>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        let at: Date | undefined;
        const decision = await round({ load: (aggregate, id) => this.aggregates.load(aggregate, id), now: () => (at ??= this.clock.now()) });
        if (decision.append === false) return decision.answer;
        return await decision.answer(await this.store.appendStreams(decision.append, decision.scope, decision.options));
      } catch (error) {
        const conflict = error instanceof DomainError && error.code === ErrorCode.ConcurrencyConflict;
        if (!conflict || attempt >= MAX_COMMAND_ATTEMPTS) throw error;
      }
    }
  }
}
