import { DomainError } from '@pp/contracts';

/** What a decider spec needs of an aggregate: its pure decide and evolve, and the state before any event. */
export interface SpecifiedDecider<State, Command, E> {
  decide(state: State, command: Command): E[];
  evolve(state: State, event: E): State;
  initial: State;
}

/**
 * Given/when/then for pure deciders, as Emmett's DeciderSpecification:
 * `given(...events)` is the stream's history, `.when(command)` answers the
 * events the decider decides on the state that history folds to (assert
 * them: the "then"), and `.state()` is that state.
 */
export function deciderSpec<State, Command, E>(decider: SpecifiedDecider<State, Command, E>) {
  return {
    given(...history: E[]) {
      const state = (): State => history.reduce(decider.evolve, decider.initial);
      return { when: (command: Command): E[] => decider.decide(state(), command), state };
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
