/** The Clock the handlers read (systemClock in production). */
export const CLOCK = Symbol('CLOCK');
