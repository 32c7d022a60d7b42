import { BadRequestException } from '@nestjs/common';
import { requestedLivemode } from './requested-mode';

describe('requestedLivemode', () => {
  it('given mode=live, then live', () => {
    expect(requestedLivemode({ mode: 'live' })).toBe(true);
  });

  it('given mode=test or no mode, then test', () => {
    expect(requestedLivemode({ mode: 'test' })).toBe(false);
    expect(requestedLivemode({})).toBe(false);
    expect(requestedLivemode(undefined)).toBe(false);
  });

  it.each([['LIVE'], ['prod'], [''], [['live', 'live']]])('given mode=%j, then 400 naming the values allowed, not test mode', (mode) => {
    expect(() => requestedLivemode({ mode })).toThrow(new BadRequestException('mode must be live or test'));
  });
});
