import { describe, expect, it } from '@jest/globals';
import { IDEMPOTENCY_RETENTION_SECONDS } from '@pp/contracts';
import {
  afterOutcome,
  afterSending,
  canonicalJson,
  idempotencyKeyFor,
  MAX_UNSETTLED,
  outcomeOfFailure,
  storedUnsettled,
  type Unsettled,
  UNSETTLED_RETENTION_MS,
} from './idempotency-key.policy';

const HOUR = 60 * 60 * 1000;
const creation = (fingerprint: string) => ({ changes: null, fingerprint });
const sent = (fingerprint: string, key: string, sent_at = 0, changes: string | null = null): Unsettled => ({ changes, fingerprint, key, sent_at });

describe('the Idempotency-Key of an action the web app submits', () => {
  let made = 0;
  const newKey = () => `new-${++made}`;

  it('given endpoint A’s creation unsettled, when endpoint B is created and A is then submitted again, then A goes under its first key', () => {
    const afterA = afterSending([], sent('endpoint-a', 'key-a'), 0);
    const afterB = afterSending(afterA, sent('endpoint-b', 'key-b', 1), 1);
    expect(idempotencyKeyFor(afterOutcome(afterB, sent('endpoint-b', 'key-b', 1), 'answered'), creation('endpoint-a'), 2, newKey)).toBe('key-a');
  });

  it('given nothing unsettled, or another input unsettled, then a new key', () => {
    expect(idempotencyKeyFor([], creation('endpoint-a'), 0, newKey)).toMatch(/^new-/);
    expect(idempotencyKeyFor([sent('endpoint-a', 'key-a')], creation('endpoint-b'), 0, newKey)).toMatch(/^new-/);
    expect(idempotencyKeyFor([sent('rotate-a', 'key-a', 0, 'we_a')], creation('rotate-a'), 0, newKey)).toMatch(/^new-/);
  });

  it('given an unsettled submission older than the server keeps a key (24 h), then its retry is a new action under a new key', () => {
    expect(UNSETTLED_RETENTION_MS).toBe(IDEMPOTENCY_RETENTION_SECONDS * 1000);
    const unsettled = [sent('endpoint-a', 'key-a', 0)];
    expect(idempotencyKeyFor(unsettled, creation('endpoint-a'), 24 * HOUR - 1, newKey)).toBe('key-a');
    expect(idempotencyKeyFor(unsettled, creation('endpoint-a'), 24 * HOUR, newKey)).toMatch(/^new-/);
    expect(afterSending(unsettled, sent('endpoint-b', 'key-b', 24 * HOUR), 24 * HOUR).map((entry) => entry.key)).toEqual(['key-b']);
  });

  it('given a retry sent again, then it replaces its first sending and its age starts again', () => {
    const retried = afterSending([sent('endpoint-a', 'key-a', 0)], sent('endpoint-a', 'key-a', 23 * HOUR), 23 * HOUR);
    expect(retried).toEqual([sent('endpoint-a', 'key-a', 23 * HOUR)]);
    expect(idempotencyKeyFor(retried, creation('endpoint-a'), 30 * HOUR, newKey)).toBe('key-a');
  });

  it(`given more than ${MAX_UNSETTLED} unsettled, then the newest ${MAX_UNSETTLED} are kept`, () => {
    let unsettled: Unsettled[] = [];
    for (let at = 0; at <= MAX_UNSETTLED; at++) unsettled = afterSending(unsettled, sent(`input-${at}`, `key-${at}`, at), at);
    expect(unsettled).toHaveLength(MAX_UNSETTLED);
    expect(unsettled.map((entry) => entry.key)).not.toContain('key-0');
    expect(unsettled[0].key).toBe(`key-${MAX_UNSETTLED}`);
  });

  it('given an outcome unknown, then the submission is kept; answered or refused, then it is forgotten', () => {
    const a = sent('endpoint-a', 'key-a');
    const b = sent('endpoint-b', 'key-b');
    expect(afterOutcome([a, b], a, 'unknown')).toEqual([a, b]);
    expect(afterOutcome([a, b], a, 'answered')).toEqual([b]);
    expect(afterOutcome([a, b], a, 'refused')).toEqual([b]);
  });

  it('given endpoint A’s rotation unsettled, when a "rotate now" of A is answered, then A’s first rotation is settled with it (its retry rotates again); B’s is not', () => {
    const rotateA = sent('rotate-a', 'key-1', 0, 'we_a');
    const rotateB = sent('rotate-b', 'key-2', 0, 'we_b');
    const rotateNowA = sent('rotate-now-a', 'key-3', 1, 'we_a');
    expect(afterOutcome([rotateNowA, rotateA, rotateB], rotateNowA, 'answered')).toEqual([rotateB]);
    expect(afterOutcome([rotateNowA, rotateA, rotateB], rotateNowA, 'refused')).toEqual([rotateA, rotateB]);
    // Creations change no thing: an answered one settles only itself.
    expect(afterOutcome([sent('b', 'key-b'), sent('a', 'key-a')], sent('b', 'key-b'), 'answered')).toEqual([sent('a', 'key-a')]);
  });

  it.each([
    [undefined, 'unknown'],
    [500, 'unknown'],
    [502, 'unknown'],
    [503, 'unknown'],
    [400, 'refused'],
    [404, 'refused'],
    [409, 'refused'],
    [422, 'refused'],
    [401, 'unknown'],
    [403, 'unknown'],
    [408, 'unknown'],
    [429, 'unknown'],
  ])('takes a failure with status %s as %s', (status, outcome) => {
    expect(outcomeOfFailure(status)).toBe(outcome);
  });

  it('given what the tab stored, then its entries are read and anything else skipped', () => {
    const entry = sent('endpoint-a', 'key-a', 5);
    expect(storedUnsettled(JSON.stringify([entry, { key: 'no fingerprint' }, null, 'text']))).toEqual([entry]);
    expect(storedUnsettled(null)).toEqual([]);
    expect(storedUnsettled('{not json')).toEqual([]);
    expect(storedUnsettled('{"key":"an object"}')).toEqual([]);
  });

  it('given one input built in two orders, then one canonical text; another input, another text', () => {
    expect(canonicalJson(['/api/x', { url: 'https://a', enabled_events: ['b', 'a'] }])).toBe(canonicalJson(['/api/x', { enabled_events: ['b', 'a'], url: 'https://a' }]));
    expect(canonicalJson(['/api/x', { nested: { b: 1, a: 2 } }])).toBe('["/api/x",{"nested":{"a":2,"b":1}}]');
    expect(canonicalJson(['/api/x', { events: ['a', 'b'] }])).not.toBe(canonicalJson(['/api/x', { events: ['b', 'a'] }]));
  });
});
