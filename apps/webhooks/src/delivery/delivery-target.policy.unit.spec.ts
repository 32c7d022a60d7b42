import { type DeliveryTarget, notSentAfterStall, notSentBecause } from './delivery-target.policy';

const enabled: DeliveryTarget = { status: 'enabled', disabled_reason: null, deleted_at: null };

describe('notSentBecause', () => {
  it('given an enabled endpoint, when an attempt is claimed, then it is sent', () => {
    expect(notSentBecause(enabled)).toBeNull();
  });

  it('given a deleted endpoint, when an attempt is claimed, then it is not sent, whatever its status', () => {
    const deletedAt = new Date('2026-03-01T12:00:00.000Z');
    expect(notSentBecause({ ...enabled, deleted_at: deletedAt })).toBe('not sent: the endpoint was deleted');
    expect(notSentBecause({ status: 'disabled', disabled_reason: 'endpoint answered 410 Gone', deleted_at: deletedAt })).toBe(
      'not sent: the endpoint was deleted',
    );
  });

  it('given a disabled endpoint, when an attempt is claimed, then it is not sent and the reason names why it was disabled', () => {
    expect(notSentBecause({ ...enabled, status: 'disabled', disabled_reason: 'endpoint answered 410 Gone' })).toBe(
      'not sent: the endpoint is disabled (endpoint answered 410 Gone)',
    );
    expect(notSentBecause({ ...enabled, status: 'disabled' })).toBe('not sent: the endpoint is disabled (disabled)');
  });
});

describe('notSentAfterStall', () => {
  const LAST = 8;

  it('given an attempt that follows a stalled one within the schedule, then it is sent (the stalled one counts as failed)', () => {
    expect(notSentAfterStall({ attempt: LAST, afterStall: true }, LAST)).toBeNull();
  });

  it('given the schedule’s last attempt stalled, or a resend’s, then the next is not sent', () => {
    expect(notSentAfterStall({ attempt: LAST + 1, afterStall: true }, LAST)).toMatch(/^not sent: the last attempt got no answer recorded/);
    expect(notSentAfterStall({ attempt: LAST + 5, afterStall: true }, LAST)).not.toBeNull();
  });

  it('given a resend past the schedule whose attempt before was answered, then it is sent', () => {
    expect(notSentAfterStall({ attempt: LAST + 1, afterStall: false }, LAST)).toBeNull();
  });
});
