import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { MAX_AMOUNT_CENTS } from '../checkout-sessions/create-checkout-session.body';
import { RecordTransferCommand } from './payments.subjects';

const transfer = (amount: unknown) => ({
  merchant_id: 'mer_1',
  livemode: true,
  email_id: 'em_1',
  memo: 'PP-ABC234',
  amount,
  sender_name: 'Jane Payer',
  sender_email: null,
  comment: null,
  reference_number: 'C1AYd8eJYUcY',
  evidence: { authenticated: true, authentication_reasons: [], signed_recipient: 'pay@shop.example', recipient_reasons: [], deposit_address: 'pay@shop.example' },
});

/** The properties a command is refused on (none: taken). */
const refusedOn = (amount: unknown) => validateSync(plainToInstance(RecordTransferCommand, transfer(amount))).map((error) => error.property);

describe('a recorded transfer’s amount', () => {
  it.each([0, 1, 2500, MAX_AMOUNT_CENTS])('takes %p cents', (amount) => {
    expect(refusedOn(amount)).not.toContain('amount');
  });

  it.each([
    ['above the largest session amount', MAX_AMOUNT_CENTS + 1],
    ['past exact integers', 2 ** 53 + 2],
    ['negative', -1],
    ['fractional', 10.5],
  ])('refuses one %s', (_case, amount) => {
    expect(refusedOn(amount)).toContain('amount');
  });
});
