import { WebhookDeliveryStatus } from '@pp/contracts';
import { endpointChanges } from './endpoint-changes';

const success = { status: WebhookDeliveryStatus.Success, nextAttemptAt: null, disableEndpoint: null } as const;
const failure = { status: WebhookDeliveryStatus.Failed, nextAttemptAt: new Date(), disableEndpoint: null } as const;
const gone = { status: WebhookDeliveryStatus.Exhausted, nextAttemptAt: null, disableEndpoint: 'the endpoint answered 410 Gone' } as const;

describe('endpointChanges', () => {
  it('given one outcome per endpoint, when folded, then a success recovers, a failure starts a streak, a disabling disables', () => {
    expect(
      endpointChanges([
        { endpointId: 'we_b', decision: failure },
        { endpointId: 'we_a', decision: success },
        { endpointId: 'we_c', decision: gone },
      ]),
    ).toEqual({ recovered: ['we_a'], failing: ['we_b'], disabled: [{ id: 'we_c', reason: 'the endpoint answered 410 Gone', streakSince: null }] });
  });

  it('given several outcomes for one endpoint, when folded, then the last decides its streak, as if recorded one by one', () => {
    expect(endpointChanges([{ endpointId: 'we_a', decision: failure }, { endpointId: 'we_a', decision: success }])).toEqual({
      recovered: ['we_a'],
      failing: [],
      disabled: [],
    });
    expect(endpointChanges([{ endpointId: 'we_a', decision: success }, { endpointId: 'we_a', decision: failure }]).failing).toEqual(['we_a']);
  });

  it('given a disabling among outcomes for one endpoint, when folded, then the endpoint is only disabled, with the first reason', () => {
    const other = { ...gone, disableEndpoint: 'failing for 5 days', streakSince: new Date('2026-02-19T12:00:00Z') };
    expect(
      endpointChanges([
        { endpointId: 'we_a', decision: gone },
        { endpointId: 'we_a', decision: success },
        { endpointId: 'we_a', decision: other },
      ]),
    ).toEqual({ recovered: [], failing: [], disabled: [{ id: 'we_a', reason: 'the endpoint answered 410 Gone', streakSince: null }] });
  });

  it('given a disabling for a failure streak, when folded, then it carries the streak’s start it was judged on', () => {
    const streakSince = new Date('2026-02-19T12:00:00Z');
    const streak = { ...gone, disableEndpoint: 'every attempt has failed since 2026-02-19T12:00:00.000Z', streakSince };
    expect(endpointChanges([{ endpointId: 'we_a', decision: streak }]).disabled).toEqual([
      { id: 'we_a', reason: 'every attempt has failed since 2026-02-19T12:00:00.000Z', streakSince },
    ]);
  });

  it('given no outcomes, when folded, then nothing changes', () => {
    expect(endpointChanges([])).toEqual({ recovered: [], failing: [], disabled: [] });
  });
});
