import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface FrameHeight {
  MAX_PX: number;
  bounded(height: unknown): number | null;
}

/** The browser script as served (a plain script, no module system): evaluated alone, it yields its one name. */
const frameHeight = new Function(`${readFileSync(join(__dirname, 'frame-height.js'), 'utf8')}\nreturn frameHeight;`)() as FrameHeight;

describe('the embedded frame’s height', () => {
  it('given a content height in whole pixels, then the frame is made exactly that tall, shorter as well as taller', () => {
    expect(frameHeight.bounded(1480)).toBe(1480);
    expect(frameHeight.bounded(312)).toBe(312);
  });

  it('given a fractional height, then it rounds up, so the last line is never cut off', () => {
    expect(frameHeight.bounded(640.2)).toBe(641);
  });

  it('given a height past the bound, then the frame stops at the bound and scrolls inside', () => {
    expect(frameHeight.bounded(frameHeight.MAX_PX + 1)).toBe(frameHeight.MAX_PX);
    expect(frameHeight.bounded(1e12)).toBe(frameHeight.MAX_PX);
  });

  it.each([0, -5, Number.NaN, Number.POSITIVE_INFINITY, '640', null, undefined, {}, [640]])(
    'given %p (no height, or not a number as a message may carry), then it is refused and the frame keeps its height',
    (height) => {
      expect(frameHeight.bounded(height)).toBeNull();
    },
  );

  it('given the bound, then it is tall enough for any checkout page yet keeps a hostile frame from stretching the page without end', () => {
    expect(frameHeight.MAX_PX).toBeGreaterThanOrEqual(3000);
    expect(frameHeight.MAX_PX).toBeLessThanOrEqual(10000);
  });
});
