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

  it('given a missing key, when it is asked for with getOrSet, then it is computed once and kept; a computation that throws keeps nothing', () => {
    const map = new LruMap<string, number>(2);
    let computed = 0;
    const length = (key: string) => {
      computed += 1;
      return key.length;
    };

    expect([map.getOrSet('abc', length), map.getOrSet('abc', length)]).toEqual([3, 3]);
    expect(computed).toBe(1);
    expect(() =>
      map.getOrSet('bad', () => {
        throw new Error('no value');
      }),
    ).toThrow('no value');
    expect(map.peek('bad')).toBeUndefined();
  });
});
