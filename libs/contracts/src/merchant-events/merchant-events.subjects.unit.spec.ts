import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { MerchantEventType } from '../ledger/merchant-events';
import { EventStreamParams, ListMerchantEventsParams } from './merchant-events.subjects';

const streamRefused = (types: string) => validateSync(plainToInstance(EventStreamParams, { types })).length > 0;
const listRefused = (type: string) => validateSync(plainToInstance(ListMerchantEventsParams, { type })).length > 0;

describe('the event stream’s types', () => {
  it.each([...Object.values(MerchantEventType), 'payment.confirmed,payment.refunded', Object.values(MerchantEventType).join(',')])('takes %s', (types) => {
    expect(streamRefused(types)).toBe(false);
  });

  it.each([
    ['a misspelt type, which would stream nothing', 'payment.confirmd'],
    ['a misspelt type beside a real one', 'payment.confirmed,payment.refundd'],
    ['an internal fact that is no merchant event', 'session.created'],
    ['an empty entry', 'payment.confirmed,'],
    ['nothing', ''],
    ['a wildcard', '*'],
  ])('refuses %s', (_case, types) => {
    expect(streamRefused(types)).toBe(true);
  });

  it.each(['payment.confirmd', 'session.created', 'checkout.session'])('refuses %s as GET /v1/events?type= does', (type) => {
    expect([streamRefused(type), listRefused(type)]).toEqual([true, true]);
  });
});
