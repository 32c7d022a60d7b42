import { type Aggregate, DomainError, ErrorCode, type Event } from '@pp/contracts';
import type { CommandRunner } from '@pp/platform';
import { inMemoryRuntime, type InMemoryEventStore } from './in-memory-event-store';

/*
 * CommandRunner (libs/platform aggregate/) deciding on streams it remembers
 * (AggregateStore.recall): a read saved when the stream is as it was, and
 * never an answer or an append that a fresh read would not have given. Here
 * rather than beside it because it runs over the in-memory event store,
 * which libs/platform may not import.
 */
type CounterEvent = Event<'counter.added' | 'counter.closed'>;
interface Counter {
  count: number;
  closed: boolean;
}
const counter: Aggregate<Counter, CounterEvent> = {
  streamId: (id) => `counter-${id}`,
  initial: { count: 0, closed: false },
  evolve: (state, event) => (event.type === 'counter.added' ? { ...state, count: state.count + 1 } : { ...state, closed: true }),
};
const SCOPE = { merchant_id: 'mer_1', livemode: false };
const STREAM = counter.streamId('c1');
const added: CounterEvent = { type: 'counter.added', schema_version: 1, data: {} };
const closed: CounterEvent = { type: 'counter.closed', schema_version: 1, data: {} };

/** Adds one to the counter, refused once it is closed. */
const add = (runner: CommandRunner) =>
  runner.run(async ({ load }) => {
    const loaded = await load(counter, 'c1');
    if (loaded.state.closed) throw new DomainError(ErrorCode.Conflict, 'closed');
    return { append: [loaded.append([added])], scope: SCOPE, answer: (reply) => reply.streams[0].version };
  });

/** Closes the counter once it has reached two; before that there is nothing to do. */
const closeWhenFull = (runner: CommandRunner) =>
  runner.run(async ({ load }) => {
    const loaded = await load(counter, 'c1');
    if (loaded.state.count < 2 || loaded.state.closed) return { append: false, answer: loaded.state };
    return { append: [loaded.append([closed])], scope: SCOPE, answer: () => ({ ...loaded.state, closed: true }) };
  });

function runtime(): { store: InMemoryEventStore; runner: CommandRunner; reads: () => number } {
  const { store, runner } = inMemoryRuntime({ now: () => new Date('2026-11-24T00:00:00.000Z') });
  const read = jest.spyOn(store, 'readStream');
  return { store, runner, reads: () => read.mock.calls.length };
}

describe('CommandRunner on remembered streams', () => {
  it('given a stream this runner appended to, when the next command runs: it decides without a read and appends at the next version', async () => {
    const { store, runner, reads } = runtime();
    expect(await add(runner)).toBe(1); // a first read: the stream is new to this runner
    expect(reads()).toBe(1);

    expect(await add(runner)).toBe(2);
    expect(await add(runner)).toBe(3);
    expect(reads()).toBe(1);
    expect(store.events(STREAM).map((event) => event.version)).toEqual([1, 2, 3]);
  });

  it('given a remembered stream another writer has moved, when a command appends on it: the stale version is refused and the command decides again on a fresh read', async () => {
    const { store, runner, reads } = runtime();
    await add(runner);
    store.given(STREAM, [added], SCOPE); // another replica's append

    expect(await add(runner)).toBe(3);
    expect(reads()).toBe(2);
    expect(store.events(STREAM).map((event) => event.type)).toEqual(['counter.added', 'counter.added', 'counter.added']);
  });

  it('given a remembered stream another writer has moved, when the remembered state asks for nothing: it answers from a fresh read, which appends', async () => {
    const { store, runner } = runtime();
    await add(runner); // remembered: one
    store.given(STREAM, [added], SCOPE); // now two

    expect(await closeWhenFull(runner)).toEqual({ count: 2, closed: true });
    expect(store.events(STREAM).map((event) => event.type)).toEqual(['counter.added', 'counter.added', 'counter.closed']);
  });

  it('given a remembered stream another writer has closed, when a command runs: the refusal comes from the fresh read, and nothing is appended', async () => {
    const { store, runner, reads } = runtime();
    await add(runner);
    store.given(STREAM, [closed], SCOPE);

    await expect(add(runner)).rejects.toMatchObject({ code: ErrorCode.Conflict, message: 'closed' });
    expect(reads()).toBe(2);
    expect(store.events(STREAM)).toHaveLength(2);
  });

  it('given a remembered closed stream, when a command would refuse on it: it reads again before refusing', async () => {
    const { store, runner, reads } = runtime();
    store.given(STREAM, [closed], SCOPE);
    await expect(add(runner)).rejects.toMatchObject({ code: ErrorCode.Conflict }); // read, refused, remembered
    expect(reads()).toBe(1);

    await expect(add(runner)).rejects.toMatchObject({ code: ErrorCode.Conflict });
    expect(reads()).toBe(2); // a refusal never stands on a remembered stream alone
  });
});

describe('CommandRunner once an append committed', () => {
  it('given an answer that fails with a concurrency conflict, then the failure is the command’s and the round never runs again', async () => {
    const { store, runner } = runtime();
    const rounds = jest.fn();
    const failing = runner.run(async ({ load }) => {
      rounds();
      const loaded = await load(counter, 'c1');
      return {
        append: [loaded.append([added])],
        scope: SCOPE,
        answer: () => {
          throw new DomainError(ErrorCode.ConcurrencyConflict, 'a stream read for the answer moved');
        },
      };
    });
    await expect(failing).rejects.toMatchObject({ code: ErrorCode.ConcurrencyConflict });
    expect(rounds).toHaveBeenCalledTimes(1);
    expect(store.events(STREAM)).toHaveLength(1);
  });
});
