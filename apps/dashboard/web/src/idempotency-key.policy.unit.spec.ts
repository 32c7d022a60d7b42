import { describe, expect, it } from '@jest/globals';
import { idempotencyKeyFor, outcomeUnknown } from './idempotency-key.policy';

describe('the Idempotency-Key of an action the web app submits', () => {
  let made = 0;
  const newKey = () => `key-${++made}`;

  it('makes a new key for a first submission and for changed input, and sends the unsettled one again for the same input', () => {
    const first = idempotencyKeyFor(undefined, '["/api/developers/keys",{"type":"secret"}]', newKey);
    const unsettled = { input: '["/api/developers/keys",{"type":"secret"}]', key: first };
    expect(idempotencyKeyFor(unsettled, '["/api/developers/keys",{"type":"secret"}]', newKey)).toBe(first);
    const changed = idempotencyKeyFor(unsettled, '["/api/developers/keys",{"type":"publishable"}]', newKey);
    expect(changed).not.toBe(first);
    expect(idempotencyKeyFor(undefined, '["/api/developers/keys",{"type":"secret"}]', newKey)).not.toBe(first);
  });

  it.each([
    [undefined, true],
    [500, true],
    [502, true],
    [503, true],
    [400, false],
    [403, false],
    [409, false],
    [429, false],
  ])('takes a failure with status %s as of unknown outcome: %s', (status, unknown) => {
    expect(outcomeUnknown(status)).toBe(unknown);
  });
});
