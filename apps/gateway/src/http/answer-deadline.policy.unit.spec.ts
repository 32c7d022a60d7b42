import { answerDeadlineMs, OTHER_WORK_MS, startsAtBody } from './answer-deadline.policy';

const BUS_TIMEOUT_MS = 5_000;

describe('answerDeadlineMs', () => {
  it('given a route that declares nothing, then one bus deadline and the time for the rest: 10 s with the defaults', () => {
    expect(answerDeadlineMs(undefined, BUS_TIMEOUT_MS)).toBe(BUS_TIMEOUT_MS + OTHER_WORK_MS);
    expect(answerDeadlineMs(undefined, BUS_TIMEOUT_MS)).toBe(10_000);
  });

  it('given a route whose longest call has its own, longer timeout, then that call and the time for the rest', () => {
    expect(answerDeadlineMs({ longestCallMs: 30_000 }, BUS_TIMEOUT_MS)).toBe(30_000 + OTHER_WORK_MS);
  });

  it('given a route that declares a call shorter than the bus deadline, then never less than the bus deadline allows', () => {
    expect(answerDeadlineMs({ longestCallMs: 1_000 }, BUS_TIMEOUT_MS)).toBe(BUS_TIMEOUT_MS + OTHER_WORK_MS);
  });

  it('given a longer bus deadline (NATS_REQUEST_TIMEOUT_MS raised), then the deadline follows it, so one call is never cut short', () => {
    expect(answerDeadlineMs(undefined, 20_000)).toBe(20_000 + OTHER_WORK_MS);
  });

  it('given a route with no deadline (the event stream), then none', () => {
    expect(answerDeadlineMs('none', BUS_TIMEOUT_MS)).toBeUndefined();
  });
});

describe('startsAtBody', () => {
  it('given an upload route, then its clock starts at its body; any other route, at its headers', () => {
    expect(startsAtBody({ longestCallMs: 30_000, fromBody: true })).toBe(true);
    expect(startsAtBody({ longestCallMs: 30_000 })).toBe(false);
    expect(startsAtBody(undefined)).toBe(false);
    expect(startsAtBody('none')).toBe(false);
  });
});
