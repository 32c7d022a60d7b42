import { init } from '@paralleldrive/cuid2';
import { createCuid2, initCuid2 } from './cuid2';

/** A seeded generator, so the package and this implementation draw the same numbers. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('CUID2', () => {
  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['a given fingerprint and counter', { fingerprint: 'a'.repeat(32) }, true],
    ['the host fingerprint and a random counter', {}, false],
    ['another length', { length: 10 }, false],
  ])('gives the ids @paralleldrive/cuid2 gives for the same inputs (%s)', (_case, options, withCounter) => {
    let now = Date.UTC(2026, 0, 1);
    jest.spyOn(Date, 'now').mockImplementation(() => (now += 7));
    const counter = (start: number) => {
      let n = start;
      return () => n++;
    };
    const theirs = init({ random: seeded(42), ...options, ...(withCounter ? { counter: counter(1000) } : {}) });
    now = Date.UTC(2026, 0, 1);
    const ours = initCuid2({ random: seeded(42), ...options, ...(withCounter ? { counter: counter(1000) } : {}) });
    now = Date.UTC(2026, 0, 1);
    const expected = Array.from({ length: 200 }, () => theirs());
    now = Date.UTC(2026, 0, 1);
    expect(Array.from({ length: 200 }, () => ours())).toEqual(expected);
    expect(new Set(expected).size).toBe(200);
  });

  it('mints distinct 24-character ids starting with a letter', () => {
    const ids = Array.from({ length: 10_000 }, () => createCuid2());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][0-9a-z]{23}$/);
  });
});
