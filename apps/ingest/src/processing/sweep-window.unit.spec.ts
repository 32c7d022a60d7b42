import { SWEEP_MARGIN_MS, SweepWindow } from './sweep-window';

const at = (iso: string) => new Date(iso);
const minus = (iso: string, ms: number) => new Date(at(iso).getTime() - ms);

describe('SweepWindow', () => {
  it('given a sweeper that just booted, when it scans, then it reads everything', () => {
    expect(new SweepWindow().since()).toBeNull();
  });

  it('given a scan that left nothing unfinished, when the next one starts, then it reads from a margin before that scan', () => {
    const window = new SweepWindow();
    window.scanned(at('2026-11-24T10:00:00.000Z'), null);
    expect(window.since()).toEqual(minus('2026-11-24T10:00:00.000Z', SWEEP_MARGIN_MS));
  });

  it('given a scan that left an older row unfinished (a DNS retry), when the next one starts, then it reads from a margin before that row', () => {
    const window = new SweepWindow();
    window.scanned(at('2026-11-24T10:00:00.000Z'), at('2026-11-24T02:00:00.000Z'));
    expect(window.since()).toEqual(minus('2026-11-24T02:00:00.000Z', SWEEP_MARGIN_MS));
  });

  it('given an unfinished row stamped after the horizon (clocks apart), when the next scan starts, then it still starts before the horizon', () => {
    const window = new SweepWindow();
    window.scanned(at('2026-11-24T10:00:00.000Z'), at('2026-11-24T10:00:05.000Z'));
    expect(window.since()).toEqual(minus('2026-11-24T10:00:00.000Z', SWEEP_MARGIN_MS));
  });

  it('given a window far back, when a later scan finds nothing left, then the window moves up to that scan', () => {
    const window = new SweepWindow();
    window.scanned(at('2026-11-24T10:00:00.000Z'), at('2026-11-23T10:00:00.000Z'));
    window.scanned(at('2026-11-24T10:01:00.000Z'), null);
    expect(window.since()).toEqual(minus('2026-11-24T10:01:00.000Z', SWEEP_MARGIN_MS));
  });
});
