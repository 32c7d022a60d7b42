import { DASHBOARD_ROLES, type DashboardPrincipalRole } from '@pp/contracts';
import { type DashboardPermission, mayIssueKey, mayPerform } from './dashboard-permissions.policy';

const allowedRoles = (permission: DashboardPermission): DashboardPrincipalRole[] =>
  [...DASHBOARD_ROLES, 'platform_admin' as const].filter((role) => mayPerform(role, permission));

describe('dashboard permissions', () => {
  it('given any merchant role, when reading the merchant’s data, then it is allowed, and a platform admin is not (no merchant)', () => {
    expect(allowedRoles('merchant.read')).toEqual(['owner', 'administrator', 'developer', 'viewer']);
  });

  it('given a developer or a viewer, when refunding or verifying a payment, then it is refused (no money actions)', () => {
    expect(allowedRoles('payments.refund')).toEqual(['owner', 'administrator']);
    expect(allowedRoles('payments.verify')).toEqual(['owner', 'administrator']);
  });

  it('given a viewer, when managing keys, webhooks or resending events, then it is refused', () => {
    expect(allowedRoles('developers.manage')).toEqual(['owner', 'administrator', 'developer']);
  });

  it('given a viewer, when simulating a test payment, then it is refused (read only)', () => {
    expect(allowedRoles('payments.simulate')).toEqual(['owner', 'administrator', 'developer']);
  });

  it('given a non-owner, when managing the team, then it is refused; the audit list is for owners and administrators', () => {
    expect(allowedRoles('team.manage')).toEqual(['owner']);
    expect(allowedRoles('audit.read')).toEqual(['owner', 'administrator']);
  });

  it('given any merchant user, when operating the platform, then only a platform admin may', () => {
    expect(allowedRoles('platform.operate')).toEqual(['platform_admin']);
  });
});

describe('who may issue which API key', () => {
  const live = (type: 'secret' | 'restricted' | 'publishable', scopes?: string[]) => ({ livemode: true, type, scopes });

  it('given an owner or an administrator, when issuing any key, then it is allowed', () => {
    for (const role of ['owner', 'administrator'] as const) {
      expect(mayIssueKey(role, live('secret'))).toBe(true);
      expect(mayIssueKey(role, live('restricted', ['refunds.write']))).toBe(true);
    }
  });

  it('given a developer, when issuing a live key that could request refunds, then it is refused (no money actions)', () => {
    expect(mayIssueKey('developer', live('secret'))).toBe(false);
    expect(mayIssueKey('developer', live('restricted', ['payments.read', 'refunds.write']))).toBe(false);
  });

  it('given a developer, when issuing a test key of any kind or a live key that cannot refund, then it is allowed', () => {
    expect(mayIssueKey('developer', { livemode: false, type: 'secret' })).toBe(true);
    expect(mayIssueKey('developer', live('publishable'))).toBe(true);
    expect(mayIssueKey('developer', live('restricted', ['checkout.write', 'payments.read']))).toBe(true);
  });

  it('given a viewer, when issuing even a test key, then it is refused', () => {
    expect(mayIssueKey('viewer', { livemode: false, type: 'publishable' })).toBe(false);
  });
});
