import type { Provider } from '@nestjs/common';
import type { LedgerAppendSubject } from '@pp/contracts';
import { systemClock } from '@pp/kernel';
import { AggregateStore } from './aggregate';
import { CLOCK } from './clock.token';
import { CommandRunner } from './command-runner';
import { EVENT_STORE } from './event-store';
import { LEDGER_APPEND_SUBJECT, LedgerEventStore } from './ledger-event-store';

/**
 * The providers a service with aggregates adds to its module: the ledger's store, appending through the service's
 * own subject (`appendSubject`), the system clock, the loader and the runner.
 */
export const aggregateRuntime = (appendSubject: LedgerAppendSubject): Provider[] => [
  { provide: CLOCK, useValue: systemClock },
  { provide: LEDGER_APPEND_SUBJECT, useValue: appendSubject },
  { provide: EVENT_STORE, useClass: LedgerEventStore },
  AggregateStore,
  CommandRunner,
];
