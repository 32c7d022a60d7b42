import type { DashboardRole } from '@pp/contracts';

/** A user as the rule sees them. */
export interface TeamMember {
  id: string;
  role: DashboardRole;
}

export const NOT_ON_TEAM = 'Dashboard user not found';
export const NOT_YOURSELF = 'You cannot remove yourself or change your own role';
export const NOT_AN_OWNER = 'Only an owner may change the team';

/**
 * Whether an owner may change the role of, or remove, a user of their merchant's team:
 * the actor must be an owner still, as the locked team says (a request that
 * passed the dashboard's check just before its sender was demoted or removed
 * must not make an owner that stays), the user must be on the team (else not
 * found, as for another merchant's user), and nobody removes or changes their
 * own role. So at least one owner always stays: the actor. Undefined when
 * allowed, else why not.
 */
export function refuseTeamChange(team: readonly TeamMember[], actorId: string, targetId: string): typeof NOT_AN_OWNER | typeof NOT_ON_TEAM | typeof NOT_YOURSELF | undefined {
  const refusal = refuseTeamAddition(team, actorId);
  if (refusal) return refusal;
  const target = team.find((member) => member.id === targetId);
  if (!target) return NOT_ON_TEAM;
  if (targetId === actorId) return NOT_YOURSELF;
  return undefined;
}

/**
 * Whether an owner may add a user to their merchant's team: the actor must be
 * an owner still, as the locked team says. A request that passed the
 * dashboard's check just before its sender was removed must not leave them a
 * new account to sign in with.
 */
export function refuseTeamAddition(team: readonly TeamMember[], actorId: string): typeof NOT_AN_OWNER | undefined {
  return team.some((member) => member.id === actorId && member.role === 'owner') ? undefined : NOT_AN_OWNER;
}
