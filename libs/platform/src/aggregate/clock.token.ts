/** Nest token of the Clock deciders are given their time by (systemClock in production, a fixed one in tests). */
export const CLOCK = Symbol('CLOCK');
