import { DomainError } from '@pp/contracts';

/**
 * Given/when/then for pure deciders: `given(...earlier commands).when(command)`
 * answers the events the decider decides on the state those commands led to.
 */
export function deciderSpec<State, Command, Event>(
  decide: (state: State, command: Command) => Event[],
  fold: (events: Event[]) => State,
) {
  return {
    given(...history: Command[]) {
      const events: Event[] = [];
      for (const command of history) events.push(...decide(fold(events), command));
      return { when: (command: Command) => decide(fold(events), command), state: () => fold(events) };
    },
  };
}

/** The DomainError `run` refuses with; fails the test if it does not refuse. */
export function refusalOf(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}
