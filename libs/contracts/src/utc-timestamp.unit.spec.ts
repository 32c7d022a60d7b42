import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CreateApiKeyCommand } from './identity/api-keys.commands';

/** The messages an API key's creation with `expires_at` is refused with (none: taken). */
const refusals = (expires_at: unknown) =>
  validateSync(plainToInstance(CreateApiKeyCommand, { merchant_id: 'mer_1', livemode: false, type: 'secret', expires_at })).flatMap((error) =>
    Object.values(error.constraints ?? {}),
  );

const REFUSED = ['expires_at must be a date-time with its offset, such as 2030-06-01T12:00:00Z'];

describe('a timestamp with its offset (an API key’s expires_at)', () => {
  it.each([
    '2030-06-01T12:00:00Z',
    '2030-06-01T12:00:00.5Z',
    '2030-06-01T12:00:00.123Z',
    '2028-02-29T23:59:59Z',
    // As Python's isoformat(), Java's Instant and Go's RFC3339Nano write them.
    '2030-06-01T12:00:00.123456+00:00',
    '2030-06-01T12:00:00.123456789Z',
    '2030-06-01T07:00:00-05:00',
  ])('takes %s', (moment) => {
    expect(refusals(moment)).toEqual([]);
  });

  it.each([
    ['a week date, which new Date reads as Invalid Date', '2030-W01'],
    ['a week date with its day', '2030-W01-1'],
    ['an ordinal date', '2030-152'],
    ['the basic format', '20300601T120000Z'],
    ['a date alone', '2030-06-01'],
    ['no offset, which would be read in the server’s zone', '2030-06-01T12:00'],
    ['seconds but no offset', '2030-06-01T12:00:00'],
    ['an offset past a day', '2030-06-01T12:00:00+24:00'],
    ['an offset without its colon', '2030-06-01T12:00:00+0100'],
    ['a lowercase z', '2030-06-01T12:00:00z'],
    ['more than nanoseconds', '2030-06-01T12:00:00.1234567891Z'],
    ['a day February has not', '2030-02-30T00:00:00Z'],
    ['29 February of a common year', '2030-02-29T00:00:00Z'],
    ['a thirteenth month', '2030-13-01T00:00:00Z'],
    ['hour 24, which new Date moves to the next day', '2030-06-01T24:00:00Z'],
    ['minute 60', '2030-06-01T12:60:00Z'],
    ['a leap second', '2030-06-30T23:59:60Z'],
    ['a number', 1906000000000],
  ])('refuses %s', (_case, moment) => {
    expect(refusals(moment)).toEqual(REFUSED);
  });
});
