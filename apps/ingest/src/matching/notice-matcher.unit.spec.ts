import { DomainError, EMAIL_RECORDED_FOR_ANOTHER_MERCHANT_RULE, ErrorCode, type PaymentView } from '@pp/contracts';
import type { BusClient } from '@pp/platform';
import { buildNotice } from '@pp/testing';
import type { AuthenticationResult } from '../authentication/authentication.types';
import { parseNotice } from '../parsing/notice-parser';
import type { ProcessedEmail } from '../processing/processed-email';
import type { DepositAddressDirectory } from './deposit-address-directory';
import { NoticeMatcher } from './notice-matcher';
import type { QuarantineRepository } from './quarantine.repository';

const AUTHENTICATED: AuthenticationResult = {
  authenticated: true,
  signing_domain: 'payments.interac.ca',
  selector: 's',
  from: 'notify@payments.interac.ca',
  recipient: { signed_recipient: 'pay@shop.example', reasons: [] },
  signatures: [],
};

/** The payment the e-mail's first hand-off recorded, for the merchant that owned the address then. */
const RECORDED: PaymentView = {
  id: 'txn_first',
  etransfer_ref: 'PP-7K3M9Q',
  amount: 2500,
  sender_name: 'CAI FANG WU',
  sender_email: null,
  comment: null,
  status: 'CONFIRMED',
  verification_method: 'AUTO_EMAIL',
  created_at: '2026-08-26T18:03:11.000Z',
  session_id: 'cs_first',
  livemode: true,
  review_reasons: [],
  verified_by: null,
};

async function processed(): Promise<ProcessedEmail> {
  const parse = await parseNotice(Buffer.from(buildNotice({ to: 'pay@shop.example' })));
  return { email_id: 'em_moved0001', received_at: '2026-08-26T18:03:11.000Z', status: parse.status, authentication: AUTHENTICATED, parse, recipients: { to: ['pay@shop.example'], delivered_to: [] } };
}

/** A matcher whose address now belongs to mer_new, and whose record-transfer answers `answer`. */
function matcherAnswering(answer: () => Promise<PaymentView>): NoticeMatcher {
  const bus = { request: answer } as unknown as BusClient;
  const directory = { ownerOf: async () => ({ merchant_id: 'mer_new', address: 'pay@shop.example' }) } as unknown as DepositAddressDirectory;
  return new NoticeMatcher(bus, directory, {} as QuarantineRepository);
}

describe('NoticeMatcher.match', () => {
  it('given an e-mail recorded for the merchant that owned its address before, when handed off again, then the hand-off names that merchant’s payment instead of failing for ever', async () => {
    const matcher = matcherAnswering(async () => {
      throw new DomainError(ErrorCode.Conflict, 'E-mail already recorded for another merchant', {
        rule: EMAIL_RECORDED_FOR_ANOTHER_MERCHANT_RULE,
        merchant_id: 'mer_old',
        payment: RECORDED,
      });
    });
    expect(await matcher.match(await processed())).toEqual({ disposition: 'confirmed', merchant_id: 'mer_old', payment_id: 'txn_first', review_reasons: [] });
  });

  it('given any other refusal, then it is thrown, so no hand-off is recorded and the sweeper repeats it', async () => {
    const matcher = matcherAnswering(async () => {
      throw new DomainError(ErrorCode.Conflict, 'Something else');
    });
    await expect(matcher.match(await processed())).rejects.toThrow('Something else');
  });

  it('given the payment recorded, then the hand-off names the merchant it was routed to', async () => {
    const matcher = matcherAnswering(async () => ({ ...RECORDED, status: 'REQUIRES_MANUAL_REVIEW', review_reasons: ['wrong_amount'] }));
    expect(await matcher.match(await processed())).toEqual({ disposition: 'manual_review', merchant_id: 'mer_new', payment_id: 'txn_first', review_reasons: ['wrong_amount'] });
  });
});
