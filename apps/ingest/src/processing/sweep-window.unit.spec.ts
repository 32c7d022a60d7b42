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

describe('SweepWindow, resumed from a stored mark', () => {
  it('given a mark a completed scan stored, when a sweeper that just booted resumes from it, then its first scan reads from a margin before it', () => {
    const window = new SweepWindow();
    window.resume(at('2026-11-24T10:00:00.000Z'));
    expect(window.since()).toEqual(minus('2026-11-24T10:00:00.000Z', SWEEP_MARGIN_MS));
  });

  it('given no stored mark, when a sweeper that just booted resumes, then its first scan reads everything', () => {
    const window = new SweepWindow();
    window.resume(null);
    expect(window.since()).toBeNull();
  });

  it('given a window that completed a scan of its own, when a stored mark is read late, then the window keeps its own mark', () => {
    const window = new SweepWindow();
    window.scanned(at('2026-11-24T10:00:00.000Z'), at('2026-11-24T09:00:00.000Z'));
    window.resume(at('2026-11-24T09:30:00.000Z'));
    expect(window.since()).toEqual(minus('2026-11-24T09:00:00.000Z', SWEEP_MARGIN_MS));
  });

  it('given a completed scan, when its mark is asked for (to store), then it is the oldest unfinished row, or the horizon when none is older', () => {
    expect(new SweepWindow().scanned(at('2026-11-24T10:00:00.000Z'), at('2026-11-24T02:00:00.000Z'))).toEqual(at('2026-11-24T02:00:00.000Z'));
    expect(new SweepWindow().scanned(at('2026-11-24T10:00:00.000Z'), null)).toEqual(at('2026-11-24T10:00:00.000Z'));
    expect(new SweepWindow().scanned(at('2026-11-24T10:00:00.000Z'), at('2026-11-24T10:00:05.000Z'))).toEqual(at('2026-11-24T10:00:00.000Z'));
  });

  it('given a stored mark, when the window scans, then the next scan starts from that scan’s mark, not the stored one', () => {
    const window = new SweepWindow();
    window.resume(at('2026-11-24T08:00:00.000Z'));
    window.scanned(at('2026-11-24T10:00:00.000Z'), null);
    expect(window.since()).toEqual(minus('2026-11-24T10:00:00.000Z', SWEEP_MARGIN_MS));
  });
});
