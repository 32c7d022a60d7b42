import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { quarantineReleaseDetail, RetryQuarantinedEmailCommand, type QuarantineRetryReply } from './quarantine';

const release: QuarantineRetryReply = {
  id: 'em_00000001',
  released_at: '2026-01-02T03:04:05.000Z',
  merchant_id: 'mer_1',
  disposition: 'confirmed',
  payment_id: 'txn_1',
  released_by: 'adm_1',
  changed: true,
};

describe('the audit detail of a quarantine release', () => {
  it('given the retry that released the e-mail, then the detail names its disposition and payment', () => {
    expect(quarantineReleaseDetail(release)).toBe('confirmed txn_1');
  });

  it('given a repeat that found the e-mail already released, then the detail says so instead of naming the payment again', () => {
    expect(quarantineReleaseDetail({ ...release, changed: false })).toBe('already released');
  });
});

describe('a quarantine retry', () => {
  const refusedOn = (command: object) => validateSync(plainToInstance(RetryQuarantinedEmailCommand, command)).map((error) => error.property);

  it('given the operator who asks, then it is taken; given none (an edge from before released_by), then it is taken too', () => {
    expect(refusedOn({ email_id: 'em_00000001', released_by: 'usr_ops1' })).toEqual([]);
    expect(refusedOn({ email_id: 'em_00000001' })).toEqual([]);
  });

  it('given an empty or overlong operator, then it is refused', () => {
    expect(refusedOn({ email_id: 'em_00000001', released_by: '' })).toEqual(['released_by']);
    expect(refusedOn({ email_id: 'em_00000001', released_by: 'x'.repeat(129) })).toEqual(['released_by']);
  });
});
