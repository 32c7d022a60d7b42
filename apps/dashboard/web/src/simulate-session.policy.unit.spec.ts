import { describe, expect, it } from '@jest/globals';
import { isPreviewSession, previewSessionIn, sessionToSimulate } from './simulate-session.policy';

const session = (id: string, reference: string, expires_at = '2026-01-01T00:30:00.000Z') => ({ id, reference, expires_at });
const ci = session('cs_ci', 'ci-build-812');
const preview = session('cs_preview', 'preview-cs_preview');

describe('the session the Simulate panel would pay', () => {
  it('given the preview session listed among others, then it is the one, whatever its place in the list', () => {
    expect(sessionToSimulate([ci, session('cs_other', 'order-1'), preview], undefined)).toBe('cs_preview');
  });

  it('given no preview session listed (it fell off the newest), then none: the user must choose, never the newest one', () => {
    expect(sessionToSimulate([ci, session('cs_other', 'order-1')], undefined)).toBeUndefined();
    expect(sessionToSimulate([], undefined)).toBeUndefined();
  });

  it('given a session the user chose, then it while listed; else back to the preview session or none', () => {
    expect(sessionToSimulate([ci, preview], 'cs_ci')).toBe('cs_ci');
    expect(sessionToSimulate([ci, preview], 'cs_gone')).toBe('cs_preview');
    expect(sessionToSimulate([ci], 'cs_gone')).toBeUndefined();
  });

  it('given a reference that only starts like a preview’s (a merchant’s own), then it is not the preview session', () => {
    expect(isPreviewSession(session('cs_mine', 'preview-spring-sale'))).toBe(false);
    expect(isPreviewSession(session('cs_mine', 'preview-cs_other'))).toBe(false);
    expect(sessionToSimulate([session('cs_mine', 'preview-spring-sale')], undefined)).toBeUndefined();
  });

  it('given two preview sessions pending (the older one’s stream was full), then the one whose deadline moved last', () => {
    const older = session('cs_old', 'preview-cs_old', '2026-01-01T00:10:00.000Z');
    const current = session('cs_new', 'preview-cs_new', '2026-01-01T00:40:00.000Z');
    expect(previewSessionIn([older, current])?.id).toBe('cs_new');
    expect(previewSessionIn([current, older])?.id).toBe('cs_new');
  });
});
