import { rotationRefusal } from './secret-rotation.policy';

describe('rotationRefusal', () => {
  const now = new Date('2026-03-01T12:00:00.000Z');
  const replaced = (expiresAt: string | null) => ({ previous_secret_sealed: expiresAt ? 'v1:k1:sealed' : null, previous_secret_expires_at: expiresAt ? new Date(expiresAt) : null });

  it('given no secret replaced yet, or one that no longer signs, lets a rotation with an overlap through', () => {
    expect(rotationRefusal(replaced(null), 86_400, now)).toBeNull();
    expect(rotationRefusal(replaced('2026-03-01T12:00:00.000Z'), 86_400, now)).toBeNull();
    expect(rotationRefusal(replaced('2026-03-01T11:00:00.000Z'), 60, now)).toBeNull();
  });

  it('given a replaced secret still signing, refuses a rotation with an overlap, naming until when it signs and how to go on', () => {
    const refusal = rotationRefusal(replaced('2026-03-02T08:00:00.000Z'), 86_400, now);
    expect(refusal).toContain('still signs deliveries until 2026-03-02T08:00:00.000Z');
    expect(refusal).toContain('previous_secret_expires_in 0');
    expect(rotationRefusal(replaced('2026-03-01T12:00:00.001Z'), 1, now)).not.toBeNull();
  });

  it('given a replaced secret still signing, lets a rotation that stops the current secret at once through (a leak)', () => {
    expect(rotationRefusal(replaced('2026-03-02T08:00:00.000Z'), 0, now)).toBeNull();
  });
});
