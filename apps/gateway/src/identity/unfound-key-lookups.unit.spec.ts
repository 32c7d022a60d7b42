import { KEY_LOOKUPS_REFUSED, ServiceMetrics } from '@pp/platform';
import type { GatewayConfig } from '../gateway.config';
import { ApiError } from '../http/api-error';
import { LINE_PER_SLOT, UnfoundKeyLookups, unfoundKeyLookupLimits } from './unfound-key-lookups';

/** A lookup that ends when told. */
const held = () => {
  let finish!: (found: string | undefined) => void;
  const done = new Promise<string | undefined>((resolve) => (finish = resolve));
  return { lookup: () => done, finish };
};

describe('unfoundKeyLookupLimits', () => {
  it('given the default pool of 20 connections, then 5 lookups at once and 100 waiting', () => {
    expect(unfoundKeyLookupLimits(20)).toEqual({ slots: 5, line: 5 * LINE_PER_SLOT });
  });

  it('given the smallest pool, then still one lookup at a time, with its line', () => {
    expect(unfoundKeyLookupLimits(2)).toEqual({ slots: 1, line: LINE_PER_SLOT });
  });

  it('given a larger pool, then a quarter of it, rounded down', () => {
    expect(unfoundKeyLookupLimits(30).slots).toBe(7);
  });
});

describe('UnfoundKeyLookups', () => {
  let metrics: ServiceMetrics;
  beforeEach(() => (metrics = new ServiceMetrics('gateway', { processMetrics: false })));
  // A pool of 4: one slot, LINE_PER_SLOT places in line.
  const newLookups = () => new UnfoundKeyLookups({ DATABASE_POOL_SIZE: 4 } as GatewayConfig, metrics);
  const refusals = async () => (await metrics.registry.getSingleMetric(KEY_LOOKUPS_REFUSED.name)!.get()).values[0]?.value;

  it('given the slot and every place in line taken, when another lookup comes, then 503 with Retry-After at once, without running it, and counted; once they end, lookups run again', async () => {
    const lookups = newLookups();
    expect(await refusals()).toBe(0);
    const pieces = Array.from({ length: 1 + LINE_PER_SLOT }, held);
    const running = pieces.map((piece) => lookups.run(piece.lookup));
    const refused = jest.fn(async () => 'never');

    const error = await lookups.run(refused).then(() => undefined, (thrown: unknown) => thrown);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, message: 'Service unavailable', headers: { 'Retry-After': '1' } });
    expect(refused).not.toHaveBeenCalled();
    expect(await refusals()).toBe(1);
    pieces.forEach((piece, i) => piece.finish(`key_${i}`));
    await expect(Promise.all(running)).resolves.toEqual(pieces.map((_, i) => `key_${i}`));
    await expect(lookups.run(async () => 'key_after')).resolves.toBe('key_after');
  });

  it('given a lookup that fails (the database down), then its own error, not a refusal', async () => {
    const failure = new Error('connection refused');
    await expect(newLookups().run(() => Promise.reject(failure))).rejects.toBe(failure);
    expect(await refusals()).toBe(0);
  });
});
