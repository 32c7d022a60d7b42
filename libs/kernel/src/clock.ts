/** Time is UTC with millisecond precision; inject a Clock where time matters to logic. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** ISO 8601, UTC, milliseconds: "2026-11-22T01:35:43.123Z". */
export const toIso = (date: Date): string => date.toISOString();

export const addSeconds = (date: Date, seconds: number): Date => new Date(date.getTime() + seconds * 1000);
