import { LruMap } from './lru-map';

describe('LruMap', () => {
  it('given a full map, when one more entry is set, then the least recently used is forgotten', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.get('a'); // a is now more recent than b
    map.set('c', 3);
    expect([map.peek('a'), map.peek('b'), map.peek('c')]).toEqual([1, undefined, 3]);
  });

  it('given a full map, when an entry is only peeked at, then it is still the first forgotten', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.peek('a');
    map.set('c', 3);
    expect(map.peek('a')).toBeUndefined();
  });
});
