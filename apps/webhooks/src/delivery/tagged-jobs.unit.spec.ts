import { TaggedJobs } from './tagged-jobs';

describe('the tagged jobs a replica remembers', () => {
  it('given an attempt queued under two tags in turn, then the latest is the one remembered', () => {
    const tagged = new TaggedJobs(10);
    tagged.remember('d1.2', 'd1.2.swept-1');
    tagged.remember('d1.2', 'd1.2.resend-2');
    expect(tagged.latest('d1.2')).toBe('d1.2.resend-2');
    expect(tagged.latest('d9.1')).toBeUndefined();
  });

  it('given more attempts than it may remember, then the longest-remembered is forgotten, counting a re-remembered one as new', () => {
    const tagged = new TaggedJobs(2);
    tagged.remember('a.1', 'a.1.swept-1');
    tagged.remember('b.1', 'b.1.swept-1');
    tagged.remember('a.1', 'a.1.swept-2');
    tagged.remember('c.1', 'c.1.swept-2');
    expect(tagged.latest('b.1')).toBeUndefined();
    expect(tagged.latest('a.1')).toBe('a.1.swept-2');
    expect(tagged.latest('c.1')).toBe('c.1.swept-2');
  });
});
