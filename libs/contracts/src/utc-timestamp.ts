import { ValidateBy } from 'class-validator';

/**
 * A moment as the API takes one: a full date and time in UTC, with the `Z`.
 * ISO 8601 also allows week and ordinal dates, the basic format and times
 * without an offset, which `new Date` reads as Invalid Date (every comparison
 * with it is false, so it passed "in the future" and failed the insert) or in
 * the server's own zone: none of those.
 */
const UTC_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;

/** The shape, on a date that exists: `new Date` rolls 2030-02-30 over to 2 March and 24:00 to the next day, so it must read back unchanged. */
function isUtcTimestamp(value: unknown): boolean {
  if (typeof value !== 'string' || !UTC_TIMESTAMP.test(value)) return false;
  const moment = new Date(value);
  return !Number.isNaN(moment.getTime()) && moment.toISOString().slice(0, 19) === value.slice(0, 19);
}

/** One rule with one message; its constraint is the shape, which the OpenAPI document shows as the pattern. */
export function IsUtcTimestamp(field: string): PropertyDecorator {
  return ValidateBy({
    name: 'isUtcTimestamp',
    constraints: [UTC_TIMESTAMP],
    validator: { validate: isUtcTimestamp, defaultMessage: () => `${field} must be a UTC date-time such as 2030-06-01T12:00:00Z` },
  });
}
