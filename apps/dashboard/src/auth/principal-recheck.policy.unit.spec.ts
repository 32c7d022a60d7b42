import type { DashboardSessionPrincipal } from '@pp/contracts';
import { afterRecheck, recheckDue } from './principal-recheck.policy';

const BOUND_MS = 30_000;
const CHECKED_AT = 1_700_000_000_000;
const administrator: DashboardSessionPrincipal = { id: 'usr_a1', email: 'a@example.com', role: 'administrator', merchant_id: 'mer_m1', credential_version: 3 };

describe('principal recheck', () => {
  describe('whether a session’s principal must be confirmed again', () => {
    it('given a principal confirmed less than the bound ago, when a request comes, then it is used as held (no bus call)', () => {
      expect(recheckDue(CHECKED_AT, CHECKED_AT, BOUND_MS)).toBe(false);
      expect(recheckDue(CHECKED_AT, CHECKED_AT + BOUND_MS - 1, BOUND_MS)).toBe(false);
    });

    it('given a principal confirmed the bound ago or longer, when a request comes, then it is confirmed again first', () => {
      expect(recheckDue(CHECKED_AT, CHECKED_AT + BOUND_MS, BOUND_MS)).toBe(true);
      expect(recheckDue(CHECKED_AT, CHECKED_AT + 10 * BOUND_MS, BOUND_MS)).toBe(true);
    });

    it('given a confirmation time ahead of this clock (another replica’s clock), when a request comes, then it is confirmed again rather than trusted for longer', () => {
      expect(recheckDue(CHECKED_AT + 1, CHECKED_AT, BOUND_MS)).toBe(true);
      expect(recheckDue(CHECKED_AT + 3_600_000, CHECKED_AT, BOUND_MS)).toBe(true);
    });

    it('given a session from before confirmations were recorded (time 0), when a request comes, then it is confirmed again', () => {
      expect(recheckDue(0, CHECKED_AT, BOUND_MS)).toBe(true);
    });
  });

  describe('what the session becomes once the gateway has answered', () => {
    const readAt = CHECKED_AT + BOUND_MS + 5;

    it('given the same principal, when rechecked, then it is confirmed as of the time the question was sent', () => {
      expect(afterRecheck(administrator, { ...administrator }, readAt)).toEqual({ outcome: 'confirmed', principal: administrator, checked_at: readAt });
    });

    it('given a lowered role, when rechecked, then the session goes on with the current role', () => {
      const viewer: DashboardSessionPrincipal = { ...administrator, role: 'viewer' };
      expect(afterRecheck(administrator, viewer, readAt)).toEqual({ outcome: 'changed', principal: viewer, checked_at: readAt });
    });

    it('given another e-mail or merchant, when rechecked, then the session goes on with the current principal', () => {
      for (const current of [{ ...administrator, email: 'new@example.com' }, { ...administrator, merchant_id: 'mer_m2' }]) {
        expect(afterRecheck(administrator, current, readAt)).toEqual({ outcome: 'changed', principal: current, checked_at: readAt });
      }
    });

    it('given a platform admin (no merchant) answered as before, when rechecked, then it is confirmed', () => {
      const admin: DashboardSessionPrincipal = { id: 'usr_p1', email: 'ops@example.com', role: 'platform_admin', credential_version: 0 };
      expect(afterRecheck(admin, { ...admin }, readAt)).toEqual({ outcome: 'confirmed', principal: admin, checked_at: readAt });
    });

    it('given a newer credential version (the password changed since the session read its principal, a sign-in with the old password included), when rechecked, then the session ends, whatever else is the same', () => {
      expect(afterRecheck(administrator, { ...administrator, credential_version: 4 }, readAt)).toEqual({ outcome: 'ended' });
      expect(afterRecheck(administrator, { ...administrator, role: 'viewer', credential_version: 9 }, readAt)).toEqual({ outcome: 'ended' });
      const admin: DashboardSessionPrincipal = { id: 'usr_p1', email: 'ops@example.com', role: 'platform_admin', credential_version: 0 };
      expect(afterRecheck(admin, { ...admin, credential_version: 1 }, readAt)).toEqual({ outcome: 'ended' });
    });

    it('given the credential version the session holds (the browser that changed the password took the new one), when rechecked, then it is confirmed', () => {
      expect(afterRecheck(administrator, { ...administrator }, readAt).outcome).toBe('confirmed');
    });

    it('given an older credential version than the session holds (a database restored from a backup), when rechecked, then the session goes on with the gateway’s', () => {
      const older = { ...administrator, credential_version: 2 };
      expect(afterRecheck(administrator, older, readAt)).toEqual({ outcome: 'changed', principal: older, checked_at: readAt });
    });

    it('given a removed user (no principal) or an answer about someone else, when rechecked, then the session ends', () => {
      expect(afterRecheck(administrator, undefined, readAt)).toEqual({ outcome: 'ended' });
      expect(afterRecheck(administrator, { ...administrator, id: 'usr_b2' }, readAt)).toEqual({ outcome: 'ended' });
    });
  });
});
