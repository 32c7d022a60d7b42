import { settled } from '@pp/testing';
import { AttemptPlaces } from './attempt-places';

describe('AttemptPlaces', () => {
  afterEach(() => jest.useRealTimers());

  it('counts the places taken and given back, never below none free', () => {
    const places = new AttemptPlaces(8);
    places.take(5);
    expect(places.free).toBe(3);
    places.take(5);
    expect(places.free).toBe(0);
    places.release(6);
    expect(places.free).toBe(4);
  });

  it('given half the places free, lets the consumer go on at once', async () => {
    const places = new AttemptPlaces(8);
    places.take(4);
    expect(await settled(places.whenHalfFree(60_000))).toBe(true);
  });

  it('given more than half taken, holds every waiter until releases bring half back, then lets them all go', async () => {
    const places = new AttemptPlaces(8);
    places.take(8);
    const waiters = [places.whenHalfFree(60_000), places.whenHalfFree(60_000)];
    places.release(3);
    expect(await Promise.all(waiters.map(settled))).toEqual([false, false]);
    places.release(1);
    expect(await Promise.all(waiters.map(settled))).toEqual([true, true]);
  });

  it('lets a waiter go after the longest wait even when no place frees', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    const places = new AttemptPlaces(8);
    places.take(8);
    const waiter = places.whenHalfFree(100);
    jest.advanceTimersByTime(99);
    expect(await settled(waiter)).toBe(false);
    jest.advanceTimersByTime(1);
    expect(await settled(waiter)).toBe(true);
  });

  it('given a free place, gives it to a queued attempt at once', async () => {
    const places = new AttemptPlaces(2);
    places.take(1);
    expect(await places.takeOne()).toBe(true);
    expect(places.free).toBe(0);
  });

  it('given none free, gives each place given back to the queued attempts first, in turn, before the consumer sees it free', async () => {
    const places = new AttemptPlaces(2);
    places.take(2);
    const first = places.takeOne();
    const second = places.takeOne();
    expect(await Promise.all([settled(first), settled(second)])).toEqual([false, false]);
    places.release(1);
    expect(await Promise.all([settled(first), settled(second)])).toEqual([true, false]);
    expect(places.free).toBe(0);
    places.release(2);
    expect(await second).toBe(true);
    expect(places.free).toBe(1);
  });

  it('once closed, answers the queued attempts waiting, and any later, that they have no place', async () => {
    const places = new AttemptPlaces(1);
    places.take(1);
    const waiting = places.takeOne();
    places.close();
    expect(await waiting).toBe(false);
    expect(await places.takeOne()).toBe(false);
  });

  it('once closed, has no place free and keeps nobody waiting', async () => {
    const places = new AttemptPlaces(8);
    places.take(8);
    const waiter = places.whenHalfFree(60_000);
    places.close();
    expect(await settled(waiter)).toBe(true);
    places.release(8);
    expect(places.free).toBe(0);
    expect(await settled(places.whenHalfFree(60_000))).toBe(true);
  });
});
