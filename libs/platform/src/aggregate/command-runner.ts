import { Inject, Injectable } from '@nestjs/common';
import { type AppendStreamsReply, COMMIT_BEFORE_RULE, DomainError, ErrorCode, type MerchantScope, type StreamAppend } from '@pp/contracts';
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
 *
 * The first round decides on the streams as this process last saw them when
 * it remembers them (AggregateStore.recall), saving a read per stream: a
 * payment for a session this process created, say. That is safe because
 * every stream is appended at the version it was loaded at, so a stale one
 * is refused and the next round reads. A round that appends nothing or
 * refuses answers from fresh reads only: it runs again with them first.
 */
@Injectable()
export class CommandRunner {
  constructor(
    readonly aggregates: AggregateStore,
    @Inject(EVENT_STORE) readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async run<T>(round: (context: CommandRound) => Promise<Decision<T>>): Promise<T> {
    /** No earlier than this (ms) is the next round decided: a moment the ledger's clock was found past. */
    let notBefore = 0;
    for (let attempt = 1; ; attempt++) {
      let appended: { decision: Extract<Decision<T>, { append: StreamAppend[] }>; reply: AppendStreamsReply };
      try {
        const decision = await this.decide(round, attempt === 1, notBefore);
        if (decision.append === false) return decision.answer;
        const reply = await this.store.appendStreams(decision.append, decision.scope, decision.options);
        this.aggregates.appended(decision.append, reply);
        appended = { decision, reply };
      } catch (error) {
        const conflict = error instanceof DomainError && error.code === ErrorCode.ConcurrencyConflict;
        if (!conflict || attempt >= MAX_COMMAND_ATTEMPTS) throw error;
        notBefore = Math.max(notBefore, passedCommitBefore(error));
        continue;
      }
      // Outside the retry: once the append committed, nothing may run the round again, whatever the answer throws.
      return appended.decision.answer(appended.reply);
    }
  }

  /**
   * One round's decision, on remembered streams where `mayRecall` and the
   * process remembers them. Such a decision stands only if it appends: one
   * that appends nothing or refuses is made again on fresh reads, since the
   * streams may have moved on since.
   */
  private async decide<T>(round: (context: CommandRound) => Promise<Decision<T>>, mayRecall: boolean, notBefore: number): Promise<Decision<T>> {
    if (mayRecall) {
      let recalled = false;
      const recall: CommandRound['load'] = (aggregate, id) => {
        const known = this.aggregates.recall(aggregate, id);
        recalled ||= known !== undefined;
        return known ? Promise.resolve(known) : this.aggregates.load(aggregate, id);
      };
      try {
        const decision = await this.decideWith(round, recall, notBefore);
        if (decision.append !== false || !recalled) return decision;
      } catch (error) {
        if (!recalled) throw error;
      }
    }
    return this.decideWith(round, (aggregate, id) => this.aggregates.load(aggregate, id), notBefore);
  }

  private decideWith<T>(round: (context: CommandRound) => Promise<Decision<T>>, load: CommandRound['load'], notBefore: number): Promise<Decision<T>> {
    let at: Date | undefined;
    return round({ load, now: () => (at ??= laterOf(this.clock.now(), notBefore)) });
  }
}

/**
 * The moment an append was refused for having passed (its `commit_before`), by the ledger's clock; 0 for any other
 * conflict. This process's clock may be behind the ledger's: decided again by it alone, a completion due just before
 * a deadline would be found open and refused again at every round; decided at that moment at the earliest, it is
 * decided on what the ledger already holds true.
 */
function passedCommitBefore(error: DomainError): number {
  const details = error.details as { rule?: unknown; commit_before?: unknown } | undefined;
  return details?.rule === COMMIT_BEFORE_RULE && typeof details.commit_before === 'string' ? Date.parse(details.commit_before) || 0 : 0;
}

const laterOf = (now: Date, notBefore: number): Date => (now.getTime() >= notBefore ? now : new Date(notBefore));
