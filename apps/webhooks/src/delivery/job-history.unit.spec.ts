import { dueTimeOf, type JobHistory, timesHeld } from './job-history';

const job = (history: Partial<JobHistory>): JobHistory => ({ timestamp: 1000, opts: {}, attemptsStarted: 1, attemptsMade: 0, stalledCounter: 0, ...history });

describe('a delivery job\'s history', () => {
  it('given a job on its first start, then it was never held', () => {
    expect(timesHeld(job({}))).toBe(0);
  });

  it('given a job put back twice, then it was held twice', () => {
    expect(timesHeld(job({ attemptsStarted: 3 }))).toBe(2);
  });

  it('given a job started again after a run that threw or stalled, and never put back, then it was never held', () => {
    expect(timesHeld(job({ attemptsStarted: 2, attemptsMade: 1 }))).toBe(0);
    expect(timesHeld(job({ attemptsStarted: 2, stalledCounter: 1 }))).toBe(0);
    expect(timesHeld(job({ attemptsStarted: 4, attemptsMade: 1, stalledCounter: 1 }))).toBe(1);
  });

  it('dates its first due time from when it was added and the delay it was added with', () => {
    expect(dueTimeOf(job({ timestamp: 5000 }))).toBe(5000);
    expect(dueTimeOf(job({ timestamp: 5000, opts: { delay: 300 } }))).toBe(5300);
  });
});
