import { ValidateBy } from 'class-validator';

/**
 * A moment as the API takes one: a full date and time with its offset from
 * UTC (`Z`, or `±HH:MM` as Python's and Java's serialisers write it), to any
 * fraction of a second up to nanoseconds (kept to the millisecond). ISO 8601
 * also allows week and ordinal dates, the basic format and times without an
 * offset, which `new Date` reads as Invalid Date (every comparison with it is
 * false, so it passed "in the future" and failed the insert) or in the
 * server's own zone: none of those.
 */
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))$/;

/** The shape, on a date and time that exist (`Date.UTC` rolls 2030-02-30 over to 2 March and 24:00 to the next day) and an offset within a day. */
function isTimestamp(value: unknown): boolean {
  const parts = typeof value === 'string' ? TIMESTAMP.exec(value) : null;
  if (!parts) return false;
  const [year, month, day, hour, minute, second] = parts.slice(1, 7).map(Number);
  const read = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  const exists =
    read.getUTCFullYear() === year &&
    read.getUTCMonth() === month - 1 &&
    read.getUTCDate() === day &&
    read.getUTCHours() === hour &&
    read.getUTCMinutes() === minute &&
    read.getUTCSeconds() === second;
  const offsetWithinADay = parts[7] === undefined || (Number(parts[7]) <= 23 && Number(parts[8]) <= 59);
  return exists && offsetWithinADay && !Number.isNaN(new Date(value as string).getTime());
}

/** One rule with one message; its constraint is the shape, which the OpenAPI document shows as the pattern. */
export function IsUtcTimestamp(field: string): PropertyDecorator {
  return ValidateBy({
    name: 'isUtcTimestamp',
    constraints: [TIMESTAMP],
    validator: { validate: isTimestamp, defaultMessage: () => `${field} must be a date-time with its offset, such as 2030-06-01T12:00:00Z` },
  });
}
