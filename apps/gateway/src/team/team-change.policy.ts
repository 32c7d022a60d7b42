import type { DashboardRole } from '@pp/contracts';

/** A user as the rule sees them. */
export interface TeamMember {
  id: string;
  role: DashboardRole;
}

export const NOT_ON_TEAM = 'Dashboard user not found';
export const NOT_YOURSELF = 'You cannot remove yourself or change your own role';
export const NOT_AN_OWNER = 'Only an owner may change the team';
/** Users a merchant's team holds at most: its list is answered whole, in one bus reply and one page. */
export const MAX_TEAM_SIZE = 100;
export const TEAM_FULL = `A team has at most ${MAX_TEAM_SIZE} users; remove one before adding another`;

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
  if (!isOwner(team, actorId)) return NOT_AN_OWNER;
  const target = team.find((member) => member.id === targetId);
  if (!target) return NOT_ON_TEAM;
  if (targetId === actorId) return NOT_YOURSELF;
  return undefined;
}

/**
 * Whether a user may be added to a merchant's team: the actor, when one is
 * named, must be an owner still, as the locked team says (a request that
 * passed the dashboard's check just before its sender was removed must not
 * leave them a new account to sign in with), and the team must have room.
 */
export function refuseTeamAddition(team: readonly TeamMember[], actorId: string | undefined): typeof NOT_AN_OWNER | typeof TEAM_FULL | undefined {
  if (actorId !== undefined && !isOwner(team, actorId)) return NOT_AN_OWNER;
  return team.length >= MAX_TEAM_SIZE ? TEAM_FULL : undefined;
}

const isOwner = (team: readonly TeamMember[], userId: string): boolean => team.some((member) => member.id === userId && member.role === 'owner');
