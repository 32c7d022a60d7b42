import type { DashboardRole } from '@pp/contracts';

/** A user as the rule sees them. */
export interface TeamMember {
  id: string;
  role: DashboardRole;
}

export type TeamChange = { kind: 'set-role'; role: DashboardRole } | { kind: 'remove' };

export const NOT_ON_TEAM = 'Dashboard user not found';
export const NOT_YOURSELF = 'You cannot remove yourself or change your own role';
export const LAST_OWNER = 'The merchant must keep at least one owner';

/**
 * Whether an owner may make a change to a user of their merchant's team:
 * the user must be on the team (else not found, as for another merchant's
 * user), nobody removes or changes their own role, and at least one owner
 * stays. Undefined when allowed, else why not.
 */
export function refuseTeamChange(team: readonly TeamMember[], actorId: string, targetId: string, change: TeamChange): typeof NOT_ON_TEAM | typeof NOT_YOURSELF | typeof LAST_OWNER | undefined {
  const target = team.find((member) => member.id === targetId);
  if (!target) return NOT_ON_TEAM;
  if (targetId === actorId) return NOT_YOURSELF;
  const staysOwner = change.kind === 'set-role' && change.role === 'owner';
  const owners = team.filter((member) => member.role === 'owner' && (member.id !== targetId || staysOwner));
  if (owners.length === 0) return LAST_OWNER;
  return undefined;
}
