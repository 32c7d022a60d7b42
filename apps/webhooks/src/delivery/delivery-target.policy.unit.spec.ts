import { type DeliveryTarget, notSentBecause } from './delivery-target.policy';

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
