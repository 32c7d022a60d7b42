import type { Provider } from '@nestjs/common';
import { systemClock } from '@pp/kernel';
import { AggregateStore } from './aggregate';
import { CLOCK } from './clock.token';
import { CommandRunner } from './command-runner';
import { EVENT_STORE } from './event-store';
import { LedgerEventStore } from './ledger-event-store';

/** The providers a service with aggregates adds to its module: the ledger's store, the system clock, the loader and the runner. */
export const AGGREGATE_RUNTIME: Provider[] = [
  { provide: CLOCK, useValue: systemClock },
  { provide: EVENT_STORE, useClass: LedgerEventStore },
  AggregateStore,
  CommandRunner,
];
